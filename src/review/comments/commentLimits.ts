// The bounds of review feedback, without the schemas that check them: the comments core holds to
// them, the webview needs the numbers (src/contract publishes them), and the schemas would put zod in
// its bundle.

/** Longest comment on a hunk the panel takes (the agent gets it whole). */
export const MAX_COMMENT_CHARS = 4000;
/** Comments one message can carry: each brings its hunk's text along, so the context stays bounded. */
export const MAX_COMMENTS_PER_MESSAGE = 30;
