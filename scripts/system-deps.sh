#!/usr/bin/env bash
# Makes sure the system packages the tests need are present: Debian's Chromium (Playwright journeys), PostgreSQL (the
# server's persistence and contract suites also run on a real server), dicom3tools (dciodvfy validates the DICOM export),
# dcmtk (storescp receives it by C-STORE; wlmscpfs is the worklist provider of the worklist tests), poppler-utils (pdftotext reads the PDF export back) and the fonts the PDF
# embeds (fonts-dejavu-core for Latin and Turkish, fonts-wqy-microhei for Chinese), nginx (the cluster suite runs
# deploy/nginx/isopter.conf in front of three processes, as its own unprivileged process on a free port), and Orthanc
# with its DICOMweb plugin (orthanc, orthanc-dicomweb: a real PACS to STOW to, query and retrieve from; the tests start
# their own /usr/sbin/Orthanc on free ports and temporary storage, so the system service the package installs may run
# beside them or not at all), and nats-server (the cluster suite and the bus tests also run on NATS; they start their
# own /usr/sbin/nats-server on a free port, never the system service on 4222).
# As root it installs what is missing with apt; otherwise it stops and prints the exact command. When everything is
# there it only looks for a few files, so it costs nothing on every `npm test`.
set -euo pipefail

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
[ -x /usr/sbin/nginx ] || missing+=(nginx)
[ -x /usr/sbin/nats-server ] || missing+=(nats-server)
command -v dciodvfy >/dev/null 2>&1 || missing+=(dicom3tools)
command -v storescp >/dev/null 2>&1 || missing+=(dcmtk)
command -v wlmscpfs >/dev/null 2>&1 || missing+=(dcmtk) # the worklist provider the worklist tests run
command -v pdftotext >/dev/null 2>&1 || missing+=(poppler-utils)
[ -x /usr/sbin/Orthanc ] || missing+=(orthanc)
[ -f /usr/share/orthanc/plugins/libOrthancDicomWeb.so ] || missing+=(orthanc-dicomweb)
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf ] || missing+=(fonts-dejavu-core)
[ -f /usr/share/fonts/truetype/wqy/wqy-microhei.ttc ] || missing+=(fonts-wqy-microhei)

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

if [ "$(id -u)" = "0" ]; then
  echo "Installing system packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  echo "Missing system packages: ${missing[*]}. Install them with:" >&2
  echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
