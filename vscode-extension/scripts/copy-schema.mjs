// What the package carries from the repository: the schema (schema/) and the screenshots its
// README shows (docs/images/), copied in beside the extension.
import { copyFileSync, mkdirSync } from "node:fs";

mkdirSync("schema", { recursive: true });
copyFileSync("../schema/sourcecheck.schema.json", "schema/sourcecheck.schema.json");
mkdirSync("images", { recursive: true });
for (const name of ["vscode-hover.png", "vscode-quickfix.png", "vscode-review.png", "vscode-document-view.png", "vscode-cite-selection.png"]) {
  copyFileSync(`../docs/images/${name}`, `images/${name}`);
}
