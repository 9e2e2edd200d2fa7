// A fresh database for each of bench:home's runs on the bench's PostgreSQL, dropped afterwards.
import pg from "pg";

const onServer = async (base: string, sql: string) => {
  const c = new pg.Client({ connectionString: base });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
};

export const freshDatabase = async (base: string, name: string) => {
  await onServer(base, `drop database if exists ${name} with (force)`);
  await onServer(base, `create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => onServer(base, `drop database if exists ${name} with (force)`) };
};
