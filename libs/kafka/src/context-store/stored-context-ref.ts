/**
 * Where a stored context is and how to check what is fetched from there. Structurally the
 * protocol's ContextRef (a TaskContextTransfer's `context_ref`), declared here because the Kafka
 * lib does not depend on the protocol lib.
 */
export interface StoredContextRef {
  /** `kafka://<topic>/<partition>/<offset of the first chunk>` */
  uri: string;
  /** SHA-256 of the whole stored bytes, lowercase hex. */
  sha256: string;
  size_bytes: number;
  /** Media type of the stored bytes, e.g. application/json. */
  content_type: string;
}

/** JSON Pointers of a TaskContextTransfer's reference, for the `path` of the errors about it. */
export const CONTEXT_REF_PATHS = {
  uri: '/payload/context_ref/uri',
  sha256: '/payload/context_ref/sha256',
  sizeBytes: '/payload/context_ref/size_bytes',
} as const;
