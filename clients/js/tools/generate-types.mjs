#!/usr/bin/env node
// Generates TypeScript declarations from the protocol's JSON Schemas (`schemas/`).
//
//   node tools/generate-types.mjs           write types/protocol/**/*.d.ts
//   node tools/generate-types.mjs --check   write nothing; exit 1 when a committed file is
//                                           stale, missing or left over from a schema that
//                                           is gone
//
// Every schema document becomes one module: `schemas/server-message.json` ->
// `types/protocol/server-message.d.ts`, `schemas/rest/created-game.json` ->
// `types/protocol/rest/created-game.d.ts`. The named models (`$defs`) keep their names
// (`Change`, `PublicState`, `RaceView`...); the titles pydantic puts on every single
// property are dropped first, so fields are typed inline instead of through a crowd
// of aliases such as `Type12` or `GameId3`.

import { readFile, readdir, writeFile, mkdir, rm } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { compile } from "json-schema-to-typescript";

const here = dirname(fileURLToPath(import.meta.url));
const schemasDir = join(here, "..", "..", "..", "schemas");
const outDir = join(here, "..", "types", "protocol");
const shown = "clients/js/types/protocol";

/** Schema documents that are not message or body schemas. */
const SKIP = new Set(["openapi.json"]);
/** Folders of `schemas/` that hold sample documents rather than schemas. */
const SKIP_DIRS = new Set(["examples"]);

/** Every schema file under `schemas/`, as sorted paths relative to it. */
async function schemaFiles(dir = schemasDir) {
  const found = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name)) found.push(...(await schemaFiles(path)));
    } else if (entry.name.endsWith(".json") && !SKIP.has(entry.name)) {
      found.push(relative(schemasDir, path));
    }
  }
  return found.sort();
}

const SCHEMA_MAPS = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];
const SCHEMA_LISTS = ["anyOf", "oneOf", "allOf", "prefixItems"];
const TYPE_KEYWORDS = [
  "type",
  "$ref",
  "anyOf",
  "oneOf",
  "allOf",
  "enum",
  "const",
  "properties",
  "items",
];
const SCHEMA_SINGLE = ["items", "additionalProperties", "not", "if", "then", "else", "contains"];

/**
 * Removes `title` from every subschema except the document itself and the named
 * definitions, and the OpenAPI-only `discriminator` keyword; types unconstrained
 * subschemas as `unknown`.
 */
function tidy(schema, named) {
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return schema;
  const out = { ...schema };
  if (!named) delete out.title;
  delete out.discriminator;
  // A schema that constrains nothing admits any JSON value (pydantic's `Any`), which
  // json-schema-to-typescript would otherwise render as an object with an index signature.
  if (!TYPE_KEYWORDS.some((key) => key in out)) out.tsType = "unknown";
  for (const key of SCHEMA_MAPS) {
    if (out[key] && typeof out[key] === "object") {
      const isDefs = key === "$defs" || key === "definitions";
      out[key] = Object.fromEntries(
        Object.entries(out[key]).map(([name, sub]) => [name, tidy(sub, isDefs)]),
      );
    }
  }
  for (const key of SCHEMA_LISTS) {
    if (Array.isArray(out[key])) out[key] = out[key].map((sub) => tidy(sub, false));
  }
  for (const key of SCHEMA_SINGLE) {
    if (out[key] && typeof out[key] === "object") out[key] = tidy(out[key], false);
  }
  return out;
}

/** A PascalCase type name for a document without a usable title. */
function nameOf(file) {
  const base = file
    .split(sep)
    .pop()
    .replace(/\.json$/, "");
  return base.replace(/(^|-)([a-z])/g, (_, __, c) => c.toUpperCase());
}

async function render(file) {
  const raw = JSON.parse(await readFile(join(schemasDir, file), "utf8"));
  const schema = tidy(raw, true);
  // "Server message" -> ServerMessage: the name of the document's own type.
  schema.title = (raw.title ?? nameOf(file)).replace(/(^|\s)(\w)/g, (_, __, c) => c.toUpperCase());
  const source = `schemas/${file.split(sep).join("/")}`;
  return compile(schema, schema.title, {
    bannerComment:
      `/* Generated from ${source} by clients/js/tools/generate-types.mjs. Do not edit: ` +
      `change the service/protocol*.py models, regenerate the schemas, then run this script. */`,
    additionalProperties: false,
    declareExternallyReferenced: true,
    unreachableDefinitions: true,
    strictIndexSignatures: true,
    format: true,
    style: { printWidth: 100, singleQuote: false, trailingComma: "all" },
  });
}

/** Output path (relative to `generated/`) -> file text. */
async function generateAll() {
  const files = new Map();
  for (const file of await schemaFiles()) {
    files.set(file.replace(/\.json$/, ".d.ts"), await render(file));
  }
  return files;
}

async function existing(dir = outDir) {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const found = [];
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await existing(path)));
    else if (entry.name.endsWith(".d.ts")) found.push(relative(outDir, path));
  }
  return found;
}

async function main() {
  const check = process.argv.includes("--check");
  const wanted = await generateAll();
  const problems = [];
  for (const [name, text] of wanted) {
    const path = join(outDir, name);
    let current = null;
    try {
      current = await readFile(path, "utf8");
    } catch {
      current = null;
    }
    if (current === text) continue;
    if (check) {
      problems.push(`${current === null ? "missing" : "stale"}: ${shown}/${name}`);
    } else {
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, text, "utf8");
      console.log(`wrote ${shown}/${name}`);
    }
  }
  for (const name of await existing()) {
    if (wanted.has(name)) continue;
    if (check) problems.push(`left over: ${shown}/${name}`);
    else {
      await rm(join(outDir, name));
      console.log(`removed ${shown}/${name}`);
    }
  }
  if (problems.length) {
    console.error(problems.join("\n"));
    console.error(
      "The generated types do not match schemas/: run `scripts/check-types --write`.",
    );
    process.exit(1);
  }
  if (check) console.log(`generated types are up to date (${wanted.size} files)`);
}

await main();
