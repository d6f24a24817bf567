#include "text/conninfo.hpp"

#include <doctest/doctest.h>

using namespace mailroom::text;

TEST_SUITE("mailroom::text::conninfo")
{
  TEST_CASE("a store location is PostgreSQL when it is a URL or a libpq keyword string")
  {
    CHECK(is_postgres_location("postgresql://mail@db/mail"));
    CHECK(is_postgres_location("postgres://a:5432,b:5433/mail?target_session_attrs=read-write"));
    CHECK(is_postgres_location("host=/nonexistent port=5432 dbname=mail user=pwuser password=SuperSecret"));
    CHECK(is_postgres_location("  dbname = mail"));
    CHECK(is_postgres_location("service=mail"));
    CHECK(is_postgres_location("password='a b' host=x"));
    CHECK(is_postgres_keywords("host=x"));
    CHECK_FALSE(is_postgres_keywords("postgresql://x"));
    CHECK_FALSE(is_postgres_url("host=x"));
    // Paths, including ones with '=' that do not start with a libpq keyword.
    CHECK_FALSE(is_postgres_location(".mailroom/mail.db"));
    CHECK_FALSE(is_postgres_location("/tmp/my dir/mail.db"));
    CHECK_FALSE(is_postgres_location("./host=x"));
    CHECK_FALSE(is_postgres_location("a=b.db"));
    CHECK_FALSE(is_postgres_location("hostname=x"));
    CHECK_FALSE(is_postgres_location("host"));
    CHECK_FALSE(is_postgres_location(""));
  }

  TEST_CASE("a URL is shown without its password, however it is written")
  {
    CHECK(redact_conninfo("postgresql://mail:pw@db.example:5432/mailroom") ==
          "postgresql://mail@db.example:5432/mailroom");
    CHECK(redact_conninfo("postgres://mail:p%40ss@db/m?sslmode=require&password=x&connect_timeout=3") ==
          "postgres://mail@db/m?sslmode=require&connect_timeout=3");
    CHECK(redact_conninfo("postgresql:///m?password=x") == "postgresql:///m");
    CHECK(redact_conninfo("postgresql:///m?pass%77ord=x&sslpassword=y&user=u") == "postgresql:///m?user=u");
    CHECK(redact_conninfo("postgresql:///m?host=/tmp/s&user=u") == "postgresql:///m?host=/tmp/s&user=u");
    CHECK(redact_conninfo("postgresql://u:a@b@host/db") == "postgresql://u@host/db");
    CHECK(redact_conninfo("postgresql://u:pa/ss@host/db") == "postgresql://u@host/db");
    CHECK(redact_conninfo("postgresql://host") == "postgresql://host");
    // Several hosts.
    CHECK(redact_conninfo("postgresql://mail:Secret@a:5432,b:5433/mail?target_session_attrs=read-write") ==
          "postgresql://mail@a:5432,b:5433/mail?target_session_attrs=read-write");
  }

  TEST_CASE("a keyword string is shown without its password pairs")
  {
    CHECK(redact_conninfo("host=/nonexistent port=5432 dbname=mail user=pwuser password=SuperSecret") ==
          "host=/nonexistent port=5432 dbname=mail user=pwuser");
    CHECK(redact_conninfo("password = 'Super Secret' host=db") == "host=db");
    CHECK(redact_conninfo("host=db password='it\\'s secret' sslpassword=k dbname=m") == "host=db dbname=m");
    CHECK(redact_conninfo("host=db password='Super Secret") == "host=db");
    CHECK(redact_conninfo("host=db user=u Secret") == "host=db user=u …");
    CHECK(redact_conninfo("host=a,b port=1,2 dbname=m") == "host=a,b port=1,2 dbname=m");
    CHECK(redact_conninfo("/tmp/password=x/mail.db") == "/tmp/password=x/mail.db");
  }

  TEST_CASE("the passwords of a keyword string, as libpq reads them and as written")
  {
    CHECK(conninfo_passwords("host=x password=SuperSecret") == std::vector<std::string>{"SuperSecret"});
    CHECK(conninfo_passwords("host=x password='it\\'s' sslpassword=k") ==
          std::vector<std::string>{"it's", "it\\'s", "k"});
    CHECK(conninfo_passwords("postgresql://u:p@h/d").empty());
    CHECK(conninfo_passwords("host=x").empty());
  }
}
