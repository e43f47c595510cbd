#!/bin/sh
# Refreshes the vendored Discord Embedded App SDK of the Activity page (docs/activity.md):
# bot/web/static/vendor/discord-sdk.js (one ES module, minified) and its licence beside it.
#
# Run from the repository root, with node and npm on the PATH (Debian: apt-get install npm):
#     sh deploy/refresh-discord-sdk.sh            # the pinned version below
#     SDK_VERSION=2.6.0 sh deploy/refresh-discord-sdk.sh   # another one: then update the pin
# Node is needed here only: the bundle is committed, and nothing installs, tests or runs the
# bot with node. Commit the two files it writes.
set -eu

SDK_VERSION="${SDK_VERSION:-2.5.0}"
ESBUILD_VERSION="0.28.2"
OUT="bot/web/static/vendor"

[ -d bot/web/static ] || { echo "run me from the repository root" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

cd "$work"
echo '{"name": "discord-sdk-bundle", "private": true}' > package.json
npm install --no-audit --no-fund --save-exact \
    "@discord/embedded-app-sdk@$SDK_VERSION" "esbuild@$ESBUILD_VERSION" >/dev/null
# One ES module with its dependencies inside (zod, uuid, eventemitter3...): the page imports it
# by a relative path, so it loads through Discord's proxy like every other file. Safari 15 as
# the oldest target: module scripts in iOS's web view.
./node_modules/.bin/esbuild node_modules/@discord/embedded-app-sdk/output/index.mjs \
    --bundle --format=esm --minify --target=es2020,safari15 --legal-comments=none \
    --banner:js="/* @discord/embedded-app-sdk $SDK_VERSION (MIT, see discord-sdk.LICENSE.md); bundled by deploy/refresh-discord-sdk.sh */" \
    --outfile=bundle.js
cd - >/dev/null
cp "$work/bundle.js" "$OUT/discord-sdk.js"
cp "$work/node_modules/@discord/embedded-app-sdk/LICENSE.md" "$OUT/discord-sdk.LICENSE.md"
echo "$OUT/discord-sdk.js: @discord/embedded-app-sdk $SDK_VERSION"
