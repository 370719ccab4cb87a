/** The server's minimum (src/auth/auth-service.ts MIN_PASSWORD_LENGTH), checked here first. */
export const MIN_PASSWORD_LENGTH = 8;
