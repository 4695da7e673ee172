// Starts `kubectl-wasdra lsp` for YAML and JSON files and passes the `wasdra` settings to it.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const config = vscode.workspace.getConfiguration("wasdra");
  const [command, ...args] = config.get("command");
  client = new LanguageClient("kubectl-wasdra", "kubectl-wasdra", { command, args }, {
    documentSelector: [{ scheme: "file", language: "yaml" }, { scheme: "file", language: "json" }],
    synchronize: { configurationSection: "wasdra" },
    initializationOptions: { wasdra: config },
  });
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
