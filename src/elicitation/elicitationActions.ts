/** How the user answers an elicitation (src/contract publishes the list, which checks the webview's answers). */
export const elicitationActions = ['accept', 'decline', 'cancel'] as const;
export type ElicitationAction = (typeof elicitationActions)[number];
