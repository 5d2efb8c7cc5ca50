/** What one line of the traffic is, as JSON-RPC 2.0 sees it (src/contract publishes it to the inspector's page). */
export type RpcKindView = 'request' | 'notification' | 'result' | 'error' | 'malformed';
