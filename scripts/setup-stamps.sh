# Sourced by scripts/play and scripts/test: what each set-up stage was last run for, so a
# second start does only what changed. A stamp is the digest of a stage's inputs (names and
# contents of its files), kept in .venv/.ugw-stamps/ (a new .venv starts from nothing).
STAMP_DIR=".venv/.ugw-stamps"

files_digest() {  # files_digest PATH... : one digest of every file under the paths
  find "$@" -type f -print0 2>/dev/null | LC_ALL=C sort -z | xargs -0 -r sha256sum \
    | sha256sum | cut -d' ' -f1
}

npm_key() { files_digest js/package.json js/package-lock.json; }
build_key() { files_digest js/package.json js/package-lock.json js/build.mjs js/src; }
python_key() { files_digest pyproject.toml hatch_build.py; }

stamp_current() {  # stamp_current NAME KEY : the stage NAME last ran for these inputs
  [[ -f "$STAMP_DIR/$1" && "$(cat "$STAMP_DIR/$1")" == "$2" ]]
}

stamp_write() {  # stamp_write NAME KEY
  mkdir -p "$STAMP_DIR"
  printf '%s\n' "$2" > "$STAMP_DIR/$1"
}
