/**
 * A result that is there at once on the usual path and has to be waited for only sometimes (a
 * schema not yet fetched, a handler that calls a model). Every record a service reads passes
 * through several such steps, and each async step is an allocation and a turn of the microtask
 * queue even when nothing waits: the caller awaits only what isPromiseLike says must be awaited.
 */
export type MaybePromise<T> = T | Promise<T>;

/** Whether `value` has to be awaited: a Promise or any other thenable, as `await` would treat it. */
export function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
}
