/** The admin URL of the test run's PostgreSQL server (set by global-setup.ts, or from outside). */
export const PG_URL_ENV = 'HERMES_TEST_PG_URL';
