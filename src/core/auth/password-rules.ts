/**
 * What a new password must be (docs/security.md, "Passwords"): 12 to 200 characters, and none of
 * the ~49,000 most common passwords of breach corpora that zxcvbn-ts ships
 * (`@zxcvbn-ts/language-common`, `passwords-common`), compared without regard to case.
 */
export const PASSWORD_LENGTH = { min: 12, max: 200 } as const;

export const COMMON_PASSWORD = 'The password is one of the most commonly used passwords; choose another.';

let common: Promise<Set<string>> | undefined;

/** The list is loaded on first use: the server starts without it. */
function commonPasswords(): Promise<Set<string>> {
  common ??= import('@zxcvbn-ts/language-common').then(({ dictionary }) => new Set(dictionary['passwords-common']));
  return common;
}

export async function isCommonPassword(password: string): Promise<boolean> {
  return (await commonPasswords()).has(password.toLowerCase());
}

/** Every rule a new password breaks, as sentences (the API's schema says the length itself). */
export async function passwordProblems(password: string): Promise<string[]> {
  const problems: string[] = [];
  if (password.length < PASSWORD_LENGTH.min)
    problems.push(`The password must be at least ${PASSWORD_LENGTH.min} characters.`);
  if (password.length > PASSWORD_LENGTH.max)
    problems.push(`The password may not be greater than ${PASSWORD_LENGTH.max} characters.`);
  if (await isCommonPassword(password)) problems.push(COMMON_PASSWORD);
  return problems;
}
