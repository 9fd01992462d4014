import "@xyflow/react/dist/style.css";
import "./styles/tokens.css";
import "./styles/layout.css";
import "./styles/controls.css";
import "./styles/tabs-and-badges.css";
import "./styles/canvas.css";
import "./styles/canvas-chrome.css";
import "./styles/panels.css";
import "./styles/inspector.css";
import "./styles/dialogs.css";
import "./styles/runs.css";
import "./styles/run-panel-sections.css";
import "./styles/runs-canvas.css";
import "./styles/runs-history.css";
import "./styles/replay.css";
import "./styles/runs-compare.css";
import "./styles/chat.css";
import "./styles/chat-tray.css";
import "./styles/design-loop.css";
import "./styles/credentials.css";
import "./styles/forks.css";
import "./styles/tests.css";
import "./styles/access.css";
import "./styles/releases.css";
import "./styles/header.css";
import "./styles/guards.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/app.js";

const root = document.getElementById("root");
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
