// Regenerates conformance.tsv from the @bufbuild/cel-spec npm package (the
// cel-spec "simple" conformance suites of google/cel-spec tests/simple/testdata).
//
//   npm install @bufbuild/cel-spec@0.6.1 && node export_conformance.js <node_modules dir>
//
// Each output line: <file>/<section>/<name> TAB <expression> TAB <kind> TAB
// <expected>, where kind is "value" (expected is a CEL literal for the
// expected value), "true" (no matcher: the result must be true), "error"
// (evaluation must fail) or "skip" (expected is why: bindings, protobuf
// messages, ...). Fields escape backslash, tab and newline.
"use strict";
const path = require("path");
const root = process.argv[2] || "node_modules";
const data = require(path.join(root, "@bufbuild/cel-spec/dist/cjs/testdata/conformance.js")).tests;

// Files and sections the DRA engine should run: those whose features the Kubernetes CEL
// environment has. Left out: protobuf messages and wrappers, the math and encoders extensions,
// cel.@block, backtick-quoted field names, the v4 string format (Kubernetes uses the legacy
// one), and the suites that need a container or only test the checker (namespace,
// type_deductions).
const files = new Set(["basic", "logic", "integer_math", "fp_math", "lists", "string",
  "conversions", "comparisons", "fields", "macros", "macros2", "optionals", "bindings_ext",
  "string_ext", "parse", "plumbing", "timestamps"]);
const skipSections = new Set(["comparisons/eq_wrapper", "fields/quoted_map_fields",
  "string_ext/format", "string_ext/format_errors", "parse/struct_field_names"]);

function escapeField(s) {
  return s.replace(/\\/g, "\\\\").replace(/\t/g, "\\t").replace(/\n/g, "\\n").replace(/\r/g, "\\r");
}

class Unsupported extends Error {}

function stringLiteral(s) {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0);
    if (ch === '"' || ch === "\\") out += "\\" + ch;
    else if (cp >= 0x20 && cp < 0x7f) out += ch;
    else out += "\\U" + cp.toString(16).padStart(8, "0");
  }
  return out + '"';
}

function doubleLiteral(v) {
  if (v === "NaN" || (typeof v === "number" && isNaN(v))) return 'double("NaN")';
  if (v === "Infinity" || v === Infinity) return 'double("Infinity")';
  if (v === "-Infinity" || v === -Infinity) return 'double("-Infinity")';
  const n = Number(v);
  if (Object.is(n, -0)) return "-0.0";
  let s = String(n);
  if (!/[.eE]/.test(s)) s += ".0";
  if (/e/.test(s) && !/\./.test(s.split("e")[0])) s = s.replace("e", ".0e");
  return s;
}

function literal(v) {
  if ("int64Value" in v) return String(v.int64Value);
  if ("uint64Value" in v) return String(v.uint64Value) + "u";
  if ("doubleValue" in v) return doubleLiteral(v.doubleValue);
  if ("stringValue" in v) return stringLiteral(v.stringValue);
  if ("boolValue" in v) return v.boolValue ? "true" : "false";
  if ("nullValue" in v) return "null";
  if ("bytesValue" in v) {
    const bytes = Buffer.from(v.bytesValue, "base64");
    return 'b"' + [...bytes].map((b) => "\\x" + b.toString(16).padStart(2, "0")).join("") + '"';
  }
  if ("listValue" in v) return "[" + (v.listValue.values || []).map(literal).join(", ") + "]";
  if ("mapValue" in v) {
    return "{" + (v.mapValue.entries || []).map((e) => literal(e.key) + ": " + literal(e.value))
        .join(", ") + "}";
  }
  if ("typeValue" in v) {
    const known = {"int": 1, "uint": 1, "double": 1, "bool": 1, "string": 1, "bytes": 1,
      "list": 1, "map": 1, "type": 1, "null_type": 1, "google.protobuf.Timestamp": 1,
      "google.protobuf.Duration": 1};
    if (!known[v.typeValue]) throw new Unsupported("type " + v.typeValue);
    return v.typeValue;
  }
  throw new Unsupported("value " + Object.keys(v).join(","));
}

const lines = [];
for (const file of data.suites) {
  if (!files.has(file.name)) continue;
  for (const section of file.suites) {
    const where = file.name + "/" + section.name;
    if (skipSections.has(where)) continue;
    for (const t of section.tests) {
      const o = t.original;
      let kind, expected;
      try {
        if (o.bindings || o.typeEnv) throw new Unsupported("bindings/declarations");
        if (o.container) throw new Unsupported("container");
        if (o.checkOnly) throw new Unsupported("check only");
        if (o.evalError) {
          kind = "error";
          expected = "";
        } else if (o.value) {
          kind = "value";
          expected = literal(o.value);
        } else if (o.typedResult) {
          kind = "value";
          expected = literal(o.typedResult.result);
        } else {
          kind = "true";
          expected = "";
        }
      } catch (e) {
        if (!(e instanceof Unsupported)) throw e;
        kind = "skip";
        expected = e.message;
      }
      lines.push([where + "/" + o.name, o.expr, kind, expected].map(escapeField).join("\t"));
    }
  }
}
process.stdout.write(lines.join("\n") + "\n");
