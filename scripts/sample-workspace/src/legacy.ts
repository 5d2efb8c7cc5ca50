/** The first greeting, from before src/greeting.ts existed. */
export function oldGreeting(name: string): string {
  return 'Hi ' + name;
}
