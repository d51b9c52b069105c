from tests.support.postgres import pg_server, pg_url  # noqa: F401  (fixtures)
