// What a failure says, for a message to the user: an Error's message, a JSON-RPC error's
// (a plain object with `message`), else the thrown value as text.

export function errorText(e: unknown): string {
  if (e instanceof Error) return e.message;
  if (e && typeof e === 'object' && 'message' in e) return String((e as { message: unknown }).message);
  return String(e);
}
