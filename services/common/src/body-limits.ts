/**
 * The largest body a client may send the facade (a repository file written through the API is the
 * big case): JSON or form, 10 MiB. Larger bodies are 413 with a v3 message.
 */
export const CLIENT_BODY_LIMIT = 10 * 1024 * 1024;

/**
 * What every hop behind the facade accepts (gateway, subgraphs, the git worker's gRPC side): a
 * client's body passed on as GraphQL variables or as a gRPC message, with room for the envelope.
 * A hop never refuses what the facade let in, which would reach the client as a 502.
 */
export const INTERNAL_BODY_LIMIT = 16 * 1024 * 1024;
