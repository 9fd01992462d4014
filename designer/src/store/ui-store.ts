import type { ConflictDetails, EdgeKind } from "@waddle/protocol";
import { createStore, type StoreApi } from "zustand/vanilla";
import type { ClipboardSlice } from "../graph/clipboard-slice.js";
import type { AgentTemplateId } from "../templates/agent-templates.js";

export type ThemePreference = "system" | "light" | "dark";
export type LeftTab = "agents" | "palette";
export type RightTab = "inspector" | "hints" | "settings" | "issues";

export interface NewAgentChoice {
  name: string;
  id: string;
  template: AgentTemplateId;
  /** Start from a copy of this saved agent (an example, say) instead of the template. */
  copyOf?: string;
}

/** Every dialog: the props it opens with and the result it resolves to (null when dismissed). */
export interface DialogMap {
  confirm: {
    props: { title: string; message: string; confirmLabel: string; danger?: boolean };
    result: boolean;
  };
  conflict: { props: ConflictDetails; result: "reload" | "overwrite" };
  newAgent: { props: Record<string, never>; result: NewAgentChoice };
  rename: { props: { title: string; label: string; initial: string }; result: string };
  token: { props: { message: string }; result: string };
  import: { props: Record<string, never>; result: true };
  export: { props: Record<string, never>; result: true };
  versions: { props: Record<string, never>; result: true };
  /** Points a channel at a saved version (`channel`: the one to start with). */
  release: { props: { channel?: string }; result: true };
  /** The agent's releases by channel, with Roll back. */
  releases: { props: { channel?: string }; result: true };
  shortcuts: { props: Record<string, never>; result: true };
  toolTest: { props: { tool: string }; result: true };
  useAgent: { props: Record<string, never>; result: true };
  /** Publish → Public chat: the agent's chat for people, its link, snippet and preview. */
  publish: { props: Record<string, never>; result: true };
  /** The agent's triggers: schedules and webhooks that start runs on their own. */
  triggers: { props: Record<string, never>; result: true };
  commandPalette: { props: Record<string, never>; result: true };
}
export type DialogKind = keyof DialogMap;
export type OpenDialog = { [K in DialogKind]: { kind: K; props: DialogMap[K]["props"] } }[DialogKind];

export interface Toast {
  id: number;
  tone: "info" | "success" | "error";
  message: string;
}

export interface ContextMenuState {
  x: number;
  y: number;
  target: "node" | "edge" | "pane";
}

export interface UiState {
  theme: ThemePreference;
  leftTab: LeftTab;
  rightTab: RightTab;
  /** The kind new connections get. */
  edgeKind: EdgeKind;
  showSuggestions: boolean;
  dialog: OpenDialog | null;
  toasts: Toast[];
  clipboard: ClipboardSlice | null;
  contextMenu: ContextMenuState | null;
  set(
    patch: Partial<
      Pick<
        UiState,
        "theme" | "leftTab" | "rightTab" | "edgeKind" | "showSuggestions" | "clipboard" | "contextMenu"
      >
    >,
  ): void;
  /** Opens a dialog and resolves with its result, or null when it is dismissed. */
  openDialog<K extends DialogKind>(
    kind: K,
    props: DialogMap[K]["props"],
  ): Promise<DialogMap[K]["result"] | null>;
  closeDialog(result: unknown): void;
  notify(tone: Toast["tone"], message: string): void;
  dismissToast(id: number): void;
}

export type UiStore = StoreApi<UiState>;

const THEME_KEY = "waddle.theme";

function getStoredTheme(): ThemePreference {
  try {
    const stored = globalThis.localStorage?.getItem(THEME_KEY);
    return stored === "light" || stored === "dark" ? stored : "system";
  } catch {
    return "system";
  }
}

/** Creates the view store: tabs, theme, dialogs, toasts, clipboard. Nothing here is a document change. */
export function createUiStore(): UiStore {
  let resolveDialog: ((result: unknown) => void) | null = null;
  let nextToastId = 1;
  return createStore<UiState>()((set, get) => ({
    theme: getStoredTheme(),
    leftTab: "agents",
    rightTab: "inspector",
    edgeKind: "auto_seq",
    showSuggestions: true,
    dialog: null,
    toasts: [],
    clipboard: null,
    contextMenu: null,
    set(patch) {
      if (patch.theme) {
        try {
          globalThis.localStorage?.setItem(THEME_KEY, patch.theme);
        } catch {
          // the choice then lasts for this page only
        }
      }
      set(patch);
    },
    openDialog(kind, props) {
      resolveDialog?.(null);
      return new Promise((resolve) => {
        resolveDialog = resolve as (result: unknown) => void;
        set({ dialog: { kind, props } as OpenDialog, contextMenu: null });
      });
    },
    closeDialog(result) {
      const resolve = resolveDialog;
      resolveDialog = null;
      set({ dialog: null });
      resolve?.(result);
    },
    notify(tone, message) {
      const toast = { id: nextToastId++, tone, message };
      set({ toasts: [...get().toasts.slice(-3), toast] });
    },
    dismissToast(id) {
      set({ toasts: get().toasts.filter((toast) => toast.id !== id) });
    },
  }));
}
