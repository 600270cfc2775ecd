// Starts `grimoire lsp` for .rules files and card YAML (the server decides which YAML files are
// card files: those in a ruleset's cards folder).
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const [command, ...args] = vscode.workspace.getConfiguration("grimoire").get("command");
  client = new LanguageClient(
    "grimoire", "Grimoire",
    { command, args },
    {
      documentSelector: [
        { scheme: "file", language: "grimoire" },
        { scheme: "file", language: "yaml", pattern: "**/cards/**/*.{yaml,yml}" },
      ],
    },
  );
  client.start();
  context.subscriptions.push({ dispose: () => client && client.stop() });
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
