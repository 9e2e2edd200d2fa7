// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, render, screen, waitFor } from "@testing-library/react";

vi.mock("@lingui/core/macro", () => import("../lingui-shim.tsx"));
vi.mock("@lingui/react/macro", () => import("../lingui-shim.tsx"));
import { Provider, createStore } from "jotai";
import { systemClock } from "../../../adapters/clock/index.ts";
import { memoryStorage } from "../../../adapters/storage/index.ts";
import { CacheKey } from "../../../core/client/cache-keys.ts";
import { ConnectionStatus, DeviceStatus } from "../../../core/model/enums.ts";
import type { LiveMessage } from "../../../core/model/live.ts";
import { StorageKeys, type Api } from "../../../core/ports.ts";
import { bindClient } from "../../../web/state/start-client.ts";
import { useDeviceView } from "../../../web/technician/frame-snapshot.ts";
import { fakeApi, tokenFor } from "../render-app.tsx";
import { device, measurement } from "./fixtures.ts";
import { fakeSocket } from "./render.tsx";

// Issue 18 §3: each lane re-renders only when what it shows changes, and live events are applied once per animation
// frame. Two lanes' readers (useDeviceView, what Lane.tsx renders from) count their renders.

afterEach(cleanup);

function Probe({ sn, renders }: { sn: string; renders: string[] }) {
  const view = useDeviceView(sn);
  renders.push(sn);
  return <p data-testid={sn}>{view ? `${view.status} ${view.connection} ${view.liveProgress?.nTested ?? "-"}` : "none"}</p>;
}

const progress = (sn: string, nTested: number): LiveMessage =>
  ({
    type: "measurement",
    operation: "measurement_progress",
    data: {
      deviceSn: sn,
      perimetryId: "a1",
      appointmentId: null,
      nTested,
      nLocations: 54,
      gazeTracking: true,
      thresholds: [],
      lastUpdatedIndex: 0,
    },
  }) as LiveMessage;

async function twoLanes() {
  const socket = fakeSocket();
  const { api } = fakeApi({ "device.all": () => [device(1, [measurement("a1")]), device(2, [measurement("a2")])] });
  const withToken: Api = {
    call: (e, i) =>
      e === "checkToken" ? Promise.resolve({ role: "user", username: "user", email: "u@x", exp: 4e9 } as never) : api.call(e, i),
  };
  const store = createStore();
  const storage = memoryStorage();
  storage.session.set(StorageKeys.session.accessToken, tokenFor("user"));
  const { client } = bindClient(store, { api: withToken, socket, storage, clock: systemClock });
  void client.session.start();
  await client.cache.fetch(CacheKey.Devices, {}); // what the technician page asks for
  const renders: string[] = [];
  render(
    <Provider store={store}>
      <Probe sn="SN1" renders={renders} />
      <Probe sn="SN2" renders={renders} />
    </Provider>,
  );
  return { socket, renders, client };
}

describe("lanes follow their own headset, once per frame", () => {
  it("a headset's live progress re-renders its lane only; several events in one frame render it once", async () => {
    const { socket, renders } = await twoLanes();
    await waitFor(() => expect(screen.getByTestId("SN2").textContent).not.toBe("none"));
    renders.length = 0;

    act(() => socket.emit(progress("SN1", 5)));
    expect(screen.getByTestId("SN1").textContent).toContain(" 5");
    expect(renders).toEqual(["SN1"]);

    renders.length = 0;
    act(() =>
      socket.emitInOneFrame([
        progress("SN1", 6),
        { type: "device", operation: "update", data: { deviceSn: "SN1", status: DeviceStatus.Playing } } as LiveMessage,
        progress("SN1", 7),
      ]),
    );
    expect(screen.getByTestId("SN1").textContent).toContain(" 7");
    expect(renders).toEqual(["SN1"]);
  });

  it("an announcement that changes nothing a lane shows (connected, again) renders no lane", async () => {
    const { socket, renders } = await twoLanes();
    await waitFor(() => expect(screen.getByTestId("SN2").textContent).not.toBe("none"));
    renders.length = 0;
    act(() =>
      socket.emit({
        type: "connection",
        operation: "update",
        data: { deviceSn: "SN2", connection: ConnectionStatus.Connected },
      } as LiveMessage),
    );
    expect(renders).toEqual([]);
    act(() =>
      socket.emit({
        type: "connection",
        operation: "update",
        data: { deviceSn: "SN2", connection: ConnectionStatus.Disconnected },
      } as LiveMessage),
    );
    expect(renders).toEqual(["SN2"]);
  });
});
