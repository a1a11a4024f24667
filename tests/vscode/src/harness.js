// A page that renders notebook outputs the way VS Code's Jupyter extension does in its webview,
// around the same npm package (@vscode/jupyter-ipywidgets8), with a real kernel.
//
// What stands in for what (microsoft/vscode-jupyter, src/webviews/webview-side/ipywidgets/):
// - the webview's widget manager: `vscIPyWidgets.WidgetManager` from the package itself, built
//   with (kernel, container, scriptLoader, logger) as kernel/manager.ts does;
// - its kernel: a real connection through @jupyterlab/services (the extension proxies one);
// - the script loader (kernel/scriptManager.ts + requirejsRegistry.ts): asked for a module it
//   does not bundle, it asks the extension host for a source and registers it in requirejs
//   under `paths` (without `.js`); the host's answer is `host.json` beside this page, written by
//   tests/browser/vscode_host.py from the kernel's environment as the extension does for a local
//   kernel (no CDN: `jupyter.widgetScriptSources` is empty by default);
// - rendering an output (kernel/index.ts renderIPyWidget + manager.ts renderWidget): a
//   `.cell-output-ipywidget-background` element per output, the model awaited once its
//   display message has been seen, then create_view and display_view; an error is logged and the
//   output stays empty, while the extension shows the load failure as a notification;
// - VS Code renders a cell's output only when it comes near the viewport (lazy outputs), and a
//   re-run cell clears its outputs before the new ones arrive.
import { KernelManager, KernelMessage, ServerConnection } from "@jupyterlab/services";

const WIDGET_MIME = "application/vnd.jupyter.widget-view+json";
const params = new URLSearchParams(location.search);
const log = [];
const logger = (message, category) => {
  log.push(`${category || "info"}: ${message}`);
  if (category === "error") console.error(message);
};

function deferred() {
  let resolve, reject;
  const promise = new Promise((a, b) => { resolve = a; reject = b; });
  promise.catch(() => {});
  return { promise, resolve, reject, done: false };
}

// ---------------------------------------------------------------- theme (VS Code sets these)
const THEMES = {
  light: {
    "--vscode-font-family": "system-ui, -apple-system, 'Segoe UI', sans-serif",
    "--vscode-font-size": "13px",
    "--vscode-editor-font-family": "Menlo, Monaco, 'Courier New', monospace",
    "--vscode-editor-font-size": "14px",
    "--vscode-editor-background": "#ffffff",
    "--vscode-editor-foreground": "#3b3b3b",
    "--vscode-sideBar-background": "#f8f8f8",
    "--vscode-editorWidget-background": "#f8f8f8",
    "--vscode-notebook-cellEditorBackground": "#f8f8f8",
    "--vscode-input-background": "#ffffff",
    "--vscode-button-background": "#005fb8",
    "--vscode-button-foreground": "#ffffff",
    "--vscode-focusBorder": "#005fb8",
    "--vscode-panel-border": "#e5e5e5",
    "--vscode-textLink-foreground": "#005fb8",
  },
  dark: {
    "--vscode-font-family": "system-ui, -apple-system, 'Segoe UI', sans-serif",
    "--vscode-font-size": "13px",
    "--vscode-editor-font-family": "Menlo, Monaco, 'Courier New', monospace",
    "--vscode-editor-font-size": "14px",
    "--vscode-editor-background": "#1f1f1f",
    "--vscode-editor-foreground": "#cccccc",
    "--vscode-sideBar-background": "#181818",
    "--vscode-editorWidget-background": "#202020",
    "--vscode-notebook-cellEditorBackground": "#181818",
    "--vscode-input-background": "#313131",
    "--vscode-button-background": "#0078d4",
    "--vscode-button-foreground": "#ffffff",
    "--vscode-focusBorder": "#0078d4",
    "--vscode-panel-border": "#2b2b2b",
    "--vscode-textLink-foreground": "#4daafc",
  },
};

function setTheme(kind) {
  const vars = THEMES[kind];
  if (!vars) throw new Error(`no theme ${kind}`);
  const html = document.documentElement;
  for (const [name, value] of Object.entries(vars)) html.style.setProperty(name, value);
  document.body.classList.remove("vscode-light", "vscode-dark");
  document.body.classList.add(`vscode-${kind}`);
  document.body.dataset.vscodeThemeKind = `vscode-${kind}`;
}

// ---------------------------------------------------------------- the script loader
// One request per module; the answer registers a requirejs path (or nothing: no local copy).
class ScriptLoader {
  constructor(kernelName) {
    this.kernelName = kernelName;
    this.widgetsRegisteredInRequireJs = new Set();
    this.failures = [];
    this.host = null;
  }

  async hostAnswer() {
    if (!this.host) {
      const res = await fetch(`host/${encodeURIComponent(this.kernelName)}.json`, { cache: "no-store" });
      if (!res.ok) throw new Error(`the extension host has no answer for kernel ${this.kernelName}`);
      this.host = await res.json();
      // the nbextensions of the environment are served from here (document.body.dataset.baseUrl)
      if (this.host.baseUrl) document.body.dataset.baseUrl = this.host.baseUrl;
      window.requirejs.config({ map: { "*": { "jupyter-js-widgets": "@jupyter-widgets/base" } } });
    }
    return this.host;
  }

  async loadWidgetScript(moduleName, moduleVersion) {
    logger(`Fetch IPyWidget source for ${moduleName} ${moduleVersion}`);
    const host = await this.hostAnswer();
    const source = (host.scripts || []).find((s) => s.moduleName === moduleName);
    if (!source || !source.scriptUri) {
      logger(`Source for IPyWidget ${moduleName} not found.`, "error");
      return;
    }
    const uri = source.scriptUri.toLowerCase().endsWith(".js") ? source.scriptUri.slice(0, -3) : source.scriptUri;
    window.requirejs.config({ paths: { [moduleName]: uri } });
    this.widgetsRegisteredInRequireJs.add(moduleName);
    logger(`Registering IPyWidget ${moduleName} found in ${source.source} @ ${uri}.`);
  }

  successHandler(className, moduleName, moduleVersion) {
    logger(`Loaded ${moduleName}.${className} ${moduleVersion}`);
  }

  errorHandler(className, moduleName, moduleVersion, error) {
    // The extension shows this as a notification (IPyWidgetLoadFailure).
    const text = `Failed to load the widget ${moduleName}.${className} (${moduleVersion}): ${error}`;
    this.failures.push(text);
    const box = document.getElementById("notifications");
    const note = document.createElement("div");
    note.className = "notification";
    note.dataset.harness = "load-failure";
    note.textContent = text;
    box.appendChild(note);
  }
}

// ---------------------------------------------------------------- outputs
class Harness {
  constructor(kernel, manager, loader) {
    this.kernel = kernel;
    this.manager = manager;
    this.loader = loader;
    this.cells = [];
    this.displayed = new Map(); // model_id -> deferred: its display message was processed
    this.lazy = params.get("lazy") !== "0";
    this.watch = new IntersectionObserver((entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        this.watch.unobserve(entry.target);
        const job = entry.target.pendingRender;
        entry.target.pendingRender = null;
        if (job) job();
      }
    }, { rootMargin: "0px" });
    // kernel/manager.ts: the model of a display message is awaited before any view is made
    kernel.iopubMessage.connect((_, msg) => {
      if (!KernelMessage.isDisplayDataMsg(msg) && !KernelMessage.isExecuteResultMsg(msg)) return;
      const data = msg.content.data && msg.content.data[WIDGET_MIME];
      if (!data) return;
      const d = this.modelDeferred(data.model_id);
      manager.get_model(data.model_id).then(() => { d.done = true; d.resolve(); }, (err) => { d.done = true; d.reject(err); });
    });
  }

  modelDeferred(id) {
    if (!this.displayed.has(id)) this.displayed.set(id, deferred());
    return this.displayed.get(id);
  }

  newCell(code, spacer) {
    const cell = document.createElement("section");
    cell.className = "cell";
    cell.dataset.cell = String(this.cells.length);
    if (spacer) cell.style.marginTop = `${spacer}px`;
    const source = document.createElement("pre");
    source.className = "cell-source";
    source.textContent = code;
    const outputs = document.createElement("div");
    outputs.className = "cell-outputs";
    cell.append(source, outputs);
    document.getElementById("notebook").appendChild(cell);
    this.cells.push({ code, el: cell, outputs, views: [] });
    return this.cells.length - 1;
  }

  // Run a cell (a new one, or cell `index` again: its outputs are cleared first).
  async run(code, options = {}) {
    const index = options.index ?? this.newCell(code, options.spacer || 0);
    const cell = this.cells[index];
    cell.outputs.replaceChildren();
    const future = this.kernel.requestExecute({ code, stop_on_error: true, store_history: true });
    const errors = [];
    future.onIOPub = (msg) => {
      const type = msg.header.msg_type;
      const c = msg.content;
      if (type === "stream") this.addText(cell, c.text, "stream");
      else if (type === "error") { errors.push(`${c.ename}: ${c.evalue}`); this.addText(cell, `${c.ename}: ${c.evalue}`, "error"); }
      else if (type === "display_data" || type === "execute_result") this.addOutput(cell, c.data || {});
    };
    await future.done;
    return { index, errors };
  }

  addText(cell, text, kind) {
    const pre = document.createElement("pre");
    pre.className = `output-${kind}`;
    pre.textContent = text;
    cell.outputs.appendChild(pre);
  }

  addOutput(cell, data) {
    const container = document.createElement("div");
    container.className = "output";
    cell.outputs.appendChild(container);
    if (!data[WIDGET_MIME]) {
      if (data["text/plain"] !== undefined) this.addText({ outputs: container }, data["text/plain"], "text");
      return;
    }
    const job = () => this.renderWidget(cell, data[WIDGET_MIME], container);
    if (this.lazy) { container.pendingRender = job; this.watch.observe(container); } else job();
  }

  async renderWidget(cell, data, container) {
    const ele = document.createElement("div");
    ele.className = "cell-output-ipywidget-background";
    ele.setAttribute("tabindex", "0");
    ele.setAttribute("role", "region");
    const output = document.createElement("div");
    output.className = "cell-output";
    ele.appendChild(output);
    container.appendChild(ele);
    container.dataset.modelId = data.model_id;
    try {
      if (data.version_major !== 2) throw new Error("widget data not available");
      await this.modelDeferred(data.model_id).promise;
      const model = await this.manager.get_model(data.model_id);
      const view = await this.manager.create_view(model, { el: ele });
      const widget = await this.manager.display_view(data, view, { node: ele });
      cell.views.push(widget);
      container.dataset.rendered = "true";
    } catch (err) {
      logger(`Error: Failed to render widget ${data.model_id}, ${err}`, "error");
      const pre = document.createElement("pre");
      pre.className = "output-render-error";
      pre.dataset.harness = "render-error";
      pre.textContent = `Failed to render widget ${data.model_id}: ${err}`;
      container.appendChild(pre);
      container.dataset.rendered = "error";
    }
  }

  // Run code quietly (not a cell): its printed text, or an exception.
  async exec(code) {
    const future = this.kernel.requestExecute({ code, stop_on_error: true, store_history: false, silent: false });
    const out = [];
    let error = null;
    future.onIOPub = (msg) => {
      const t = msg.header.msg_type;
      if (t === "stream") out.push(msg.content.text);
      else if (t === "error") error = `${msg.content.ename}: ${msg.content.evalue}\n${(msg.content.traceback || []).join("\n")}`;
    };
    await future.done;
    return { out: out.join(""), error };
  }
}

async function main() {
  setTheme(params.get("theme") || "light");
  const kernelName = params.get("kernel") || "python3";
  const { activate } = await import("./ipywidgets.js");
  activate();
  window.vscIPyWidgets8.load();
  const serverSettings = ServerConnection.makeSettings({
    baseUrl: `${location.origin}/`,
    wsUrl: `ws://${location.host}/`,
  });
  const kernels = new KernelManager({ serverSettings });
  await kernels.ready;
  const kernel = await kernels.startNew({ name: kernelName });
  await kernel.info;
  const loader = new ScriptLoader(kernelName);
  const manager = new window.vscIPyWidgets.WidgetManager(kernel, document.getElementById("notebook"), loader, logger);
  window.harness = new Harness(kernel, manager, loader);
  window.harness.log = log;
  window.harness.setTheme = setTheme;
  window.harness.shutdown = () => kernel.shutdown();
  document.body.dataset.ready = "true";
}

main().catch((err) => {
  console.error(err);
  document.body.dataset.ready = "error";
  document.body.dataset.error = String(err && err.stack ? err.stack : err);
});
