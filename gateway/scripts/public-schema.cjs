// The public schema's changes, as internal teams live with them. gateway/api-schema.graphql is the
// schema they build on, checked in; the build composes a new one (generated/api-schema.graphql).
//
//   node gateway/scripts/public-schema.cjs check     what `npm test` runs: fails on any difference,
//                                                    and names the breaking ones
//   node gateway/scripts/public-schema.cjs accept    records the build's schema when nothing breaks
//   node gateway/scripts/public-schema.cjs accept --breaking "why"
//                                                    records it anyway, with the reason and the
//                                                    changes in gateway/SCHEMA-CHANGELOG.md
//
// A change breaks clients when @graphql-inspector/core calls it BREAKING (a field, argument, type
// or enum value removed or retyped, a new required argument, ...). Removing a field, argument,
// input field or enum value that was @deprecated (with a reason) first is the way to change without
// breaking: the deprecation process GitHub and GitLab document.
const { readFileSync, writeFileSync, existsSync, appendFileSync } = require('node:fs');
const { resolve } = require('node:path');
const { buildSchema } = require('graphql');
const { diff, ChangeType, DiffRule, CriticalityLevel } = require('@graphql-inspector/core');

const ACCEPTED = resolve(__dirname, '..', 'api-schema.graphql');
const BUILT = resolve(__dirname, '..', 'generated', 'api-schema.graphql');
const CHANGELOG = resolve(__dirname, '..', 'SCHEMA-CHANGELOG.md');

/**
 * Removing an argument that was deprecated first breaks no client that heeded the deprecation
 * (graphql-inspector's own rule covers fields, input fields and enum values, not arguments).
 */
const suppressRemovalOfDeprecatedArgument = ({ changes, oldSchema }) =>
  changes.map((change) => {
    if (change.type !== ChangeType.FieldArgumentRemoved || change.criticality.level !== CriticalityLevel.Breaking)
      return change;
    const [typeName, fieldName, argumentName] = change.path.split('.');
    const type = oldSchema.getType(typeName);
    const argument = type?.getFields?.()[fieldName]?.args.find((arg) => arg.name === argumentName);
    return argument?.deprecationReason
      ? { ...change, criticality: { ...change.criticality, level: CriticalityLevel.Dangerous } }
      : change;
  });

/** The changes from `accepted` to `built` (SDL texts): every one, and those that break clients. */
async function schemaChanges(accepted, built) {
  const changes = await diff(buildSchema(accepted), buildSchema(built), [
    DiffRule.suppressRemovalOfDeprecatedField,
    suppressRemovalOfDeprecatedArgument,
  ]);
  return {
    changes: changes.map((change) => `${change.criticality.level}: ${change.message}`),
    breaking: changes
      .filter((change) => change.criticality.level === CriticalityLevel.Breaking)
      .map((change) => change.message),
  };
}

async function main([command, flag, reason]) {
  const built = readFileSync(BUILT, 'utf8');
  const accepted = existsSync(ACCEPTED) ? readFileSync(ACCEPTED, 'utf8') : null;
  const { changes, breaking } =
    accepted === null ? { changes: ['the first schema'], breaking: [] } : await schemaChanges(accepted, built);
  if (command === 'check') {
    if (accepted === built) return 0;
    if (breaking.length) {
      console.error(
        `The public schema breaks its clients (${breaking.length}):\n${breaking.map((m) => `  - ${m}`).join('\n')}\n` +
          'Deprecate first (@deprecated(reason: "...") on what goes, beside what replaces it) and remove a release later.',
      );
    } else {
      console.error(
        `The public schema changed without breaking clients (${changes.length}):\n${changes.map((m) => `  - ${m}`).join('\n')}\n` +
          'Record it with `npm run schema:accept`, and review gateway/api-schema.graphql as clients will read it.',
      );
    }
    return 1;
  }
  if (command === 'accept') {
    if (breaking.length && flag !== '--breaking') {
      console.error(`Refused: ${breaking.length} breaking change(s):\n${breaking.map((m) => `  - ${m}`).join('\n')}`);
      console.error(
        'Deprecate first, or accept with --breaking "the reason" (recorded in gateway/SCHEMA-CHANGELOG.md).',
      );
      return 1;
    }
    if (breaking.length) {
      if (!reason?.trim()) {
        console.error('--breaking needs the reason, as clients will read it.');
        return 1;
      }
      if (!existsSync(CHANGELOG)) writeFileSync(CHANGELOG, '# Breaking changes of the public GraphQL schema\n');
      appendFileSync(
        CHANGELOG,
        `\n## ${new Date().toISOString().slice(0, 10)}: ${reason.trim()}\n\n${breaking.map((m) => `- ${m}`).join('\n')}\n`,
      );
    }
    writeFileSync(ACCEPTED, built);
    console.log(`recorded ${changes.length} change(s) in gateway/api-schema.graphql`);
    return 0;
  }
  console.error('usage: public-schema.cjs check | accept [--breaking "reason"]');
  return 2;
}

module.exports = { schemaChanges };
if (require.main === module) main(process.argv.slice(2)).then((code) => process.exit(code));
