// Placement by organisation (issue 32): the long-lived sockets, a browser's live socket and a headset's device socket,
// name their organisation in a `route` query parameter, and the reverse proxy in front of a cluster places every
// socket with the same route on the same process (deploy/nginx/isopter.conf, `hash $arg_route consistent`). An
// organisation's headsets and browsers then meet on one process, and their live events need not cross the bus.
// Only a hint for the proxy: no process reads it. Missing or wrong, the socket lands elsewhere and routing by interest
// carries its events across, as for any socket.

export const ROUTE_PARAM = "route";

/** `url` with its route parameter set to `route` (left as it is when there is no route). */
export const withRoute = (url: string, route: string | undefined): string => {
  if (!route) return url;
  const u = new URL(url);
  u.searchParams.set(ROUTE_PARAM, route);
  return u.href;
};
