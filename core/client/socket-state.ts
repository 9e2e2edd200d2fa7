import { SocketState } from "../model/enums.ts";

// "Websocket states | connecting, open, closing, closed, not established each carry a message" (scheduling seed §8).
// The uninstantiated state is the 'not established' one.
export const SOCKET_STATE_MESSAGES: Readonly<Record<SocketState, string>> = {
  [SocketState.Uninstantiated]: "Live connection not established",
  [SocketState.Connecting]: "Connecting to live updates",
  [SocketState.Open]: "Live updates connected",
  [SocketState.Closing]: "Closing live updates",
  [SocketState.Closed]: "Live updates disconnected",
};

export const socketStateMessage = (state: SocketState): string => SOCKET_STATE_MESSAGES[state];
