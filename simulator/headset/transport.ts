// How a headset reaches the server: a connector opens links; the headset handles reconnection itself on its Clock.

export interface Link {
  send(text: string): void;
  /** Close cleanly (the headset is switched off or shut down). */
  close(): void;
  /** Drop the connection without a closing handshake (Wi-Fi lost, battery dead): the server sees an abnormal close. */
  drop(): void;
}

export interface LinkHandlers {
  onOpen(link: Link): void;
  onMessage(text: string): void;
  /** The link closed or could not open. */
  onClose(): void;
}

export interface Connector {
  /** Opens a link; `route` is the headset's organisation as the server last named it (welcome), for the route
   * parameter a cluster's proxy places sockets by (core/model/socket-route.ts). */
  open(handlers: LinkHandlers, route?: string): void;
}
