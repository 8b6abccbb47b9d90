// Client-side checks before anything is sent; the server checks again and wins.
export type FieldError = { id: string; values?: Record<string, string | number> };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function checkEmail(v: string): FieldError | undefined {
  const s = v.trim();
  if (!s) return { id: "auth.validation.emailRequired" };
  if (s.length > 320 || !EMAIL.test(s)) return { id: "auth.validation.emailInvalid" };
  return undefined;
}

export function checkPassword(v: string, min?: number): FieldError | undefined {
  if (!v) return { id: "auth.validation.passwordRequired" };
  if (min && v.length < min) return { id: "auth.validation.passwordTooShort", values: { min } };
  if (v.length > 72) return { id: "auth.validation.passwordTooLong", values: { max: 72 } };
  return undefined;
}

export function checkName(v: string): FieldError | undefined {
  if (v.trim().length > 100) return { id: "auth.validation.nameTooLong", values: { max: 100 } };
  return undefined;
}
