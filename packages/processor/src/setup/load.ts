/**
 * Imports an optional peer dependency. When it is not installed, the error names the variable that asked for it
 * and the command that installs it, instead of Node's bare "Cannot find package".
 */
export async function loadPeer<T>(name: string, askedBy: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (isMissing(error, name)) {
      throw new Error(
        `backupstats: ${askedBy} needs the package ${name}, which is not installed; install it with: npm install ${name} ` +
          '(the 0.2xx exporters go with @opentelemetry/sdk-metrics 2.x, the 0.3xx ones with 3.x)',
        { cause: error },
      );
    }
    throw error;
  }
}

function isMissing(error: unknown, name: string): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && error.message.includes(name);
}
