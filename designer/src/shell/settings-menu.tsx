import type { ReactElement } from "react";
import { ACCESS_HASH } from "../access/access-route.js";
import { MenuButton, MenuButtonItem } from "../components/menu-button.js";
import { useEditor, useUi } from "../editor/editor-context.js";
import { formatShortcut } from "../editor/shortcut.js";
import { getCredentialsHash, navigateToHash } from "../settings/settings-route.js";
import { meStore, useDenied } from "../store/me-store.js";

const THEME_ICONS = { system: "monitor", light: "sun", dark: "moon" } as const;
const THEME_NAMES = { system: "System", light: "Light", dark: "Dark" } as const;

/**
 * The header's **Settings** menu: the server's credentials and access, and this browser's theme and
 * shortcuts, each named with what it is for (a lock and a key side by side were told apart only by
 * hovering). The items keep their test ids and their reasons when a role may not use them.
 */
export function SettingsMenu(): ReactElement {
  const editor = useEditor();
  const theme = useUi((state) => state.theme);
  const credentialsDenied = useDenied("credentials:manage");
  const me = meStore((state) => state.me);
  const manages = me?.permissions?.includes("keys:manage") ?? false;
  const shortcut = (name: string) => {
    const keys = editor.commands.get(name)?.shortcut;
    return keys ? formatShortcut(keys, editor.isMac) : "";
  };
  return (
    <MenuButton
      label="Settings"
      icon="settings"
      testId="settings-menu"
      title="Credentials, access, theme and keyboard shortcuts"
    >
      <div className="menu-button-heading">This server</div>
      <MenuButtonItem
        icon="lock"
        label="Credentials"
        detail="LLM keys, secrets and allowed hosts"
        testId="open-credentials"
        disabled={credentialsDenied !== null}
        title={credentialsDenied ?? "Credentials: LLM keys, secrets and allowed hosts for this server"}
        onSelect={() => navigateToHash(getCredentialsHash())}
      />
      <MenuButtonItem
        icon="key"
        label="Access"
        detail="API keys and roles"
        testId="open-access"
        disabled={!manages}
        title={
          manages || me === null
            ? "Access: API keys and roles"
            : `Only admins manage keys (you are ${me.role}).`
        }
        onSelect={() => navigateToHash(ACCESS_HASH)}
      />
      <div className="menu-separator" role="separator" />
      <div className="menu-button-heading">This browser</div>
      <MenuButtonItem
        icon={THEME_ICONS[theme]}
        label={`Theme: ${THEME_NAMES[theme]}`}
        detail={`Click to switch (${shortcut("toggle-theme")})`}
        testId="theme-toggle"
        title={`Theme: ${theme} (${shortcut("toggle-theme")})`}
        keepOpen
        onSelect={() => editor.commands.execute("toggle-theme", editor)}
      />
      <MenuButtonItem
        icon="keyboard"
        label="Keyboard shortcuts"
        detail={`Every shortcut (${shortcut("show-shortcuts")})`}
        testId="command-show-shortcuts"
        onSelect={() => editor.commands.execute("show-shortcuts", editor)}
      />
    </MenuButton>
  );
}
