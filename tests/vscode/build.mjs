// Builds the harness page into dist/ (tests/browser/test_vscode.py serves it). Offline: only
// what `npm ci` put in node_modules. The widget manager and requirejs are copied as shipped.
import * as esbuild from "esbuild";
import { copyFile, mkdir, rm } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import path from "node:path";

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.join(here, "dist");
await rm(dist, { recursive: true, force: true });
await mkdir(dist, { recursive: true });
await esbuild.build({
  entryPoints: [path.join(here, "src", "harness.js")],
  outfile: path.join(dist, "harness.js"),
  bundle: true,
  format: "esm",
  target: "es2020",
  platform: "browser",
  // the widget manager stays the file the extension ships, loaded at run time
  external: ["./ipywidgets.js"],
  logLevel: "warning",
});
const copies = [
  ["node_modules/@vscode/jupyter-ipywidgets8/dist/ipywidgets.js", "ipywidgets.js"],
  ["node_modules/requirejs/require.js", "require.js"],
  ["src/index.html", "index.html"],
  ["src/harness.css", "harness.css"],
];
for (const [from, to] of copies) await copyFile(path.join(here, from), path.join(dist, to));
console.log(`harness built in ${path.relative(process.cwd(), dist) || "."}`);
