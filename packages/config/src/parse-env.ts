import { type Static, type TObject, Type } from 'typebox';
import { Value } from 'typebox/value';

/** A configuration problem, named by variable. Its message is one line, fit to print and exit. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`Invalid configuration: ${variable} ${problem}`);
  }
}

/** "true"/"1"/"yes" and friends, as an environment variable says a boolean. */
export const BooleanFlag = (defaultValue: boolean, description: string) =>
  Type.Union([Type.Literal('true'), Type.Literal('false'), Type.Literal('1'), Type.Literal('0')], {
    default: String(defaultValue),
    description,
  });

export const flagValue = (value: string): boolean => value === 'true' || value === '1';

/**
 * Validates the environment against `schema`: applies defaults, converts numbers, and throws a
 * ConfigError naming the first bad or missing variable. Empty strings count as unset.
 * Values never appear in the message, so secrets cannot leak through it.
 */
export function parseEnv<T extends TObject>(schema: T, env: NodeJS.ProcessEnv): Static<T> {
  const input: Record<string, string> = {};
  for (const key of Object.keys(schema.properties)) {
    const value = env[key];
    if (value !== undefined && value.trim() !== '') input[key] = value.trim();
  }
  const converted = Value.Convert(schema, Value.Default(schema, input));
  const [first] = Value.Errors(schema, converted);
  if (first) {
    const missing = first.keyword === 'required';
    const variable = missing
      ? String(
          (first.params as { requiredProperties?: string[] }).requiredProperties?.[0] ?? first.instancePath,
        )
      : first.instancePath.replace(/^\//, '');
    const described = (schema.properties[variable] as { description?: string } | undefined)?.description;
    const problem = missing ? 'is required' : `is invalid: ${first.message}`;
    throw new ConfigError(variable, described ? `${problem} (${described})` : problem);
  }
  return converted as Static<T>;
}
