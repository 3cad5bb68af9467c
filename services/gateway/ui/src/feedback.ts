import { ApiError } from './api.js';
import { byTestId, h, show } from './dom.js';

/** The banner at the top of the page: the last failure of what the user asked for, with the API's code. */
const banner = {
  root: byTestId('error-banner'),
  code: byTestId('error-code'),
  status: byTestId('error-status'),
  message: byTestId('error-message'),
  issues: byTestId('error-issues'),
};

byTestId('error-dismiss').addEventListener('click', clearError);

export function showError(error: unknown): void {
  const apiError =
    error instanceof ApiError ? error : new ApiError(0, 'PAGE_ERROR', String((error as Error)?.message ?? error));
  banner.code.textContent = apiError.code;
  banner.status.textContent = apiError.status ? `HTTP ${apiError.status}` : '';
  banner.message.textContent = apiError.path ? `${apiError.message} (at ${apiError.path})` : apiError.message;
  banner.issues.replaceChildren(
    ...apiError.issues.map((issue) =>
      h('li', {}, h('code', { text: issue.code }), ' ', h('code', { text: issue.path }), ' ', issue.message ?? ''),
    ),
  );
  show(banner.issues, apiError.issues.length > 0);
  show(banner.root, true);
  if (!(error instanceof ApiError)) console.error(error);
}

export function clearError(): void {
  show(banner.root, false);
}

/** Runs what the user asked for: clears the last error, shows this one's failure. */
export async function run(action: () => Promise<void>): Promise<void> {
  clearError();
  try {
    await action();
  } catch (error) {
    showError(error);
  }
}

/**
 * Counts the loads of one thing: an answer that is no longer the latest is dropped, so a slow
 * answer never overwrites a newer one.
 */
export class Latest {
  private seq = 0;
  next(): () => boolean {
    const mine = ++this.seq;
    return () => mine === this.seq;
  }
  cancel(): void {
    this.seq += 1;
  }
}
