import { NotAvailable } from '../../ports/errors.js';
import type { AttachmentStore } from '../../ports/attachment-store.js';
import type { WorkspaceFiles } from '../../ports/workspace-files.js';
import type { WorkspaceTransfer } from '../../ports/workspace-transfer.js';

export const FILES_UNAVAILABLE =
  'Files are not available on this deployment: it runs on Cloudflare Workers, which has no file system. Run Hermes WebUI on Node to work on files.';

/**
 * Workspaces on Workers: there is no file system. A session still names a workspace (the
 * configured default), so that check passes; every file operation says why it cannot work.
 */
export class UnavailableWorkspaceFiles implements WorkspaceFiles {
  async checkWorkspace(path: string) {
    return path;
  }
  async absolutePath(): Promise<never> {
    throw new NotAvailable(FILES_UNAVAILABLE);
  }
  async list(): Promise<never> {
    throw new NotAvailable(FILES_UNAVAILABLE);
  }
  async readText(): Promise<never> {
    throw new NotAvailable(FILES_UNAVAILABLE);
  }
  async readRaw(): Promise<never> {
    throw new NotAvailable(FILES_UNAVAILABLE);
  }
  async save(): Promise<never> {
    throw new NotAvailable(FILES_UNAVAILABLE);
  }
  async create(): Promise<never> {
    throw new NotAvailable(FILES_UNAVAILABLE);
  }
  async createDir(): Promise<never> {
    throw new NotAvailable(FILES_UNAVAILABLE);
  }
  async rename(): Promise<never> {
    throw new NotAvailable(FILES_UNAVAILABLE);
  }
  async move(): Promise<never> {
    throw new NotAvailable(FILES_UNAVAILABLE);
  }
  async readBytes(): Promise<never> {
    throw new NotAvailable(FILES_UNAVAILABLE);
  }
  async writeBytes(): Promise<never> {
    throw new NotAvailable(FILES_UNAVAILABLE);
  }
  async delete(): Promise<never> {
    throw new NotAvailable(FILES_UNAVAILABLE);
  }
}

export class UnavailableAttachments implements AttachmentStore {
  async save(): Promise<never> {
    throw new NotAvailable('Attachments are not available on this deployment (Cloudflare Workers has no file system)');
  }
}

export class UnavailableWorkspaceTransfer implements WorkspaceTransfer {
  async upload(): Promise<never> {
    throw new NotAvailable(FILES_UNAVAILABLE);
  }
  async extractInto(): Promise<never> {
    throw new NotAvailable(FILES_UNAVAILABLE);
  }
  async extractAttachment(): Promise<never> {
    throw new NotAvailable(FILES_UNAVAILABLE);
  }
  async zipFolder(): Promise<never> {
    throw new NotAvailable(FILES_UNAVAILABLE);
  }
}
