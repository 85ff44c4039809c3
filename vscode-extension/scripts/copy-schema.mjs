// The schema lives at the repository root (schema/); the package carries a copy.
import { copyFileSync, mkdirSync } from "node:fs";

mkdirSync("schema", { recursive: true });
copyFileSync("../schema/sourcecheck.schema.json", "schema/sourcecheck.schema.json");
