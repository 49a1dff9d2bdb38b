/** `${name}` in a settings string. */
export const VARIABLE = /\$\{([^}]*)\}/g;

/** `$NAME` outside `${…}`: how a shell reads a variable, which settings strings do not expand. */
const SHELL_VARIABLE = /\$[A-Za-z_][A-Za-z0-9_]*/;

/** Whether a settings string, as written, holds a `$NAME` that stays as it is (not `${env:NAME}`). */
export function holdsShellVariable(value: string): boolean {
  return SHELL_VARIABLE.test(value.replace(VARIABLE, ''));
}

export const KNOWN_VARIABLES =
  'workspaceFolder, workspaceFolder:NAME, workspaceFolderBasename, userHome, pathSeparator, env:NAME, input:ID';

/**
 * What is wrong with the variables of one settings string, or undefined: checked when settings
 * are applied, so a typo is reported at once instead of when the server starts.
 */
export function variablesProblem(value: string): string | undefined {
  for (const match of value.matchAll(VARIABLE)) {
    const problem = variableNameProblem(match[1]);
    if (problem) return problem;
  }
  const unclosed = value.replace(VARIABLE, '').indexOf('${');
  if (unclosed >= 0) return 'has a "${" without its closing "}"';
  return undefined;
}

function variableNameProblem(name: string): string | undefined {
  if (
    name === 'workspaceFolder' ||
    name === 'workspaceFolderBasename' ||
    name === 'userHome' ||
    name === 'pathSeparator'
  )
    return undefined;
  const [kind, ...rest] = name.split(':');
  const argument = rest.join(':');
  if (rest.length > 0 && (kind === 'workspaceFolder' || kind === 'env' || kind === 'input')) {
    if (argument.trim() === '')
      return `uses \${${kind}:} without ${kind === 'input' ? 'an id' : kind === 'env' ? 'a variable name' : 'a folder name'}`;
    if (kind === 'env' && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(argument))
      return `uses \${env:${argument}}, which is not a valid environment variable name`;
    return undefined;
  }
  return unknownVariable(name);
}

/** Says a variable is unknown; a name written like an environment variable's gets the way to read one. */
export function unknownVariable(name: string): string {
  const envLike = /^[A-Z_][A-Z0-9_]*$/.test(name) && /[A-Z]/.test(name);
  return `uses the unknown variable \${${name}} (known: ${KNOWN_VARIABLES})${envLike ? `; to read the environment variable ${name}, write \${env:${name}}` : ''}`;
}
