/** Polls until `probe` returns a value (not undefined/false), bounded in time. */
export async function waitFor<T>(probe: () => T | undefined | false | null, what: string, timeoutMs = 10_000, intervalMs = 10): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false && value !== null) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
