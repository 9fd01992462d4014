import "@xyflow/react/dist/style.css";
import "./styles/tokens.css";
import "./styles/layout.css";
import "./styles/controls.css";
import "./styles/canvas.css";
import "./styles/panels.css";
import "./styles/dialogs.css";
import "./styles/runs.css";
import "./styles/runs-history.css";
import "./styles/chat.css";
import "./styles/design-loop.css";
import "./styles/credentials.css";
import "./styles/forks.css";
import "./styles/tests.css";
import "./styles/access.css";
import "./styles/header.css";
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
