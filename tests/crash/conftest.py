from tests.support.postgres import pg_server  # noqa: F401  (fixture)
