// Bundle the anywidget front end into the Python package's static/ folder.
//   node build.mjs          one production build (minified)
//   node build.mjs --watch  rebuild on every change (for `anywidget` hot reload)
import * as esbuild from "esbuild";
import { fileURLToPath } from "node:url";
import path from "node:path";

const here = path.dirname(fileURLToPath(import.meta.url));
const outdir = path.resolve(here, "..", "ugentopoly_widget", "static");
const watch = process.argv.includes("--watch");

const common = {
  bundle: true,
  minify: true,
  target: "es2020",
  sourcemap: false,
  logLevel: "info",
  absWorkingDir: here,
};

const builds = [
  // anywidget loads _esm from a blob: URL, so everything must be in one ES module.
  { ...common, entryPoints: ["src/index.js"], outfile: path.join(outdir, "widget.js"), format: "esm" },
  { ...common, entryPoints: ["src/styles.css"], outfile: path.join(outdir, "widget.css") },
  // the classroom's room view (TypeScript; ugentopoly_widget/classroom/views.py RoomPanel)
  { ...common, entryPoints: ["src/classroom/index.ts"], outfile: path.join(outdir, "classroom.js"), format: "esm" },
  { ...common, entryPoints: ["src/classroom/styles.css"], outfile: path.join(outdir, "classroom.css") },
];

if (watch) {
  for (const options of builds) {
    const ctx = await esbuild.context(options);
    await ctx.watch();
  }
  console.log(`watching src/ -> ${path.relative(process.cwd(), outdir)}`);
} else {
  await Promise.all(builds.map((options) => esbuild.build(options)));
}
