import { ApiError } from '../common/errors/api-error';

export const ExportErrorCode = {
  notFound: 'export-not-found',
  notReady: 'export-not-ready',
  expired: 'export-expired',
  failed: 'export-failed',
} as const;

export function exportNotFound(): ApiError {
  return new ApiError(ExportErrorCode.notFound, 'No such export, or not one of yours.', 404);
}

/** pretix's contract: 409 while the file is being made; ask again later. */
export function exportNotReady(status: string): ApiError {
  return new ApiError(ExportErrorCode.notReady, 'The export is not ready yet; try again shortly.', 409, { export_status: status });
}

export function exportExpired(): ApiError {
  return new ApiError(ExportErrorCode.expired, 'The export has expired and its file was deleted; request a new one.', 410);
}

export function exportFailed(reason: string | null): ApiError {
  return new ApiError(ExportErrorCode.failed, `The export failed${reason ? `: ${reason}` : ''}; request a new one.`, 410);
}
