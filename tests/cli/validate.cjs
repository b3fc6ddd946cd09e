#!/usr/bin/env node
// Validates a JSON document against a schema.
//   node validate.cjs sarif FILE          FILE against the SARIF 2.1.0 schema (as shipped by @microsoft/jest-sarif)
//   node validate.cjs schema SCHEMA [FILE...]
//       SCHEMA must compile as a strict JSON Schema 2020-12; each FILE must then validate,
//       or, when named "!FILE", must fail to validate.
// Exit status: 0 all as expected, 1 a validation result differs, 2 usage or input error.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    console.error(`${file}: ${e.message}`);
    process.exit(2);
  }
}

function report(validate, label) {
  for (const err of validate.errors || []) console.error(`  ${label}${err.instancePath || '/'}: ${err.message}`);
}

const [mode, first, ...rest] = process.argv.slice(2);
if (mode === 'sarif' && first) {
  const Ajv4 = require('ajv-draft-04');
  const addFormats = require('ajv-formats');
  const schemaFile = path.join(path.dirname(require.resolve('@microsoft/jest-sarif/package.json')),
                               'lib', 'schemas', 'sarif-2.1.0-rtm.5.json');
  const ajv = new Ajv4({ allErrors: true, strict: false, unicodeRegExp: false });
  addFormats(ajv);
  const validate = ajv.compile(readJson(schemaFile));
  if (!validate(readJson(first))) {
    console.error(`${first}: not valid SARIF 2.1.0`);
    report(validate, '');
    process.exit(1);
  }
  console.log(`${first}: valid SARIF 2.1.0`);
} else if (mode === 'schema' && first) {
  const Ajv2020 = require('ajv/dist/2020');
  const addFormats = require('ajv-formats');
  const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
  addFormats(ajv);
  let validate;
  try {
    validate = ajv.compile(readJson(first));
  } catch (e) {
    console.error(`${first}: not a valid strict JSON Schema 2020-12: ${e.message}`);
    process.exit(1);
  }
  let failures = 0;
  for (const arg of rest) {
    const expectValid = !arg.startsWith('!');
    const file = expectValid ? arg : arg.slice(1);
    const valid = validate(readJson(file));
    if (valid !== expectValid) {
      failures++;
      console.error(`${file}: expected ${expectValid ? 'valid' : 'invalid'}, got ${valid ? 'valid' : 'invalid'}`);
      report(validate, '');
    }
  }
  if (failures) process.exit(1);
  console.log(`${first}: compiles; ${rest.length} document(s) as expected`);
} else {
  console.error('usage: validate.cjs sarif FILE | validate.cjs schema SCHEMA [FILE|!FILE...]');
  process.exit(2);
}
