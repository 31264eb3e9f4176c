#!/usr/bin/env bash
# Turn a fresh Raspberry Pi OS (Bookworm, 64-bit, with desktop or Lite) into a Table Noir kiosk.
#
#   sudo kiosk/deploy/setup-pi.sh [USER]        (USER defaults to the one who called sudo)
#
# What it does, each step safe to repeat:
#   1. installs the system packages the kiosk needs (Kivy's SDL2 and GL libraries, a minimal X
#      server for Lite images, I2C tools);
#   2. enables I2C (the VL53L0X in the minimal build) with raspi-config;
#   3. puts USER in the gpio, i2c and dialout groups (pads, sensor, the tray's USB serial);
#   4. builds .venv with the project and its Pi extras (gpiozero pin drivers, Blinka);
#   5. installs and enables the systemd unit that starts the kiosk at boot, full screen,
#      and restarts it if it ever stops.
# A site configuration (pins, operator PIN) goes in ~USER/.config/table-noir/table-noir.toml.
set -euo pipefail
[ "$(id -u)" -eq 0 ] || { echo "setup-pi: run me with sudo" >&2; exit 1; }
user=${1:-${SUDO_USER:-pi}}
home=$(getent passwd "$user" | cut -d: -f6)
[ -n "$home" ] || { echo "setup-pi: no user called $user" >&2; exit 1; }
repo=$(cd "$(dirname "$0")/../.." && pwd)

echo "setup-pi: system packages"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
  python3-venv python3-dev libsdl2-2.0-0 libsdl2-image-2.0-0 libsdl2-mixer-2.0-0 libsdl2-ttf-2.0-0 \
  libgl1 libgles2 libmtdev1 xserver-xorg xinit x11-xserver-utils i2c-tools >/dev/null

echo "setup-pi: enabling I2C"
if command -v raspi-config >/dev/null; then
  raspi-config nonint do_i2c 0
else
  echo "setup-pi: raspi-config not found; enable I2C by hand (dtparam=i2c_arm=on)" >&2
fi

echo "setup-pi: groups for $user"
for group in gpio i2c dialout video input; do
  getent group "$group" >/dev/null && usermod -aG "$group" "$user"
done

echo "setup-pi: Python environment in $repo/.venv"
sudo -u "$user" bash -c "cd '$repo' && { [ -x .venv/bin/python ] || python3 -m venv .venv; } && \
  .venv/bin/python -m pip install -q --upgrade pip && .venv/bin/python -m pip install -q -e '.[pi]'"

echo "setup-pi: let the kiosk user start X on the console"
printf 'allowed_users=anybody\nneeds_root_rights=yes\n' > /etc/X11/Xwrapper.config

echo "setup-pi: systemd unit"
sed -e "s|@USER@|$user|g" -e "s|@REPO@|$repo|g" -e "s|@HOME@|$home|g" \
  "$repo/kiosk/deploy/table-noir-kiosk.service" > /etc/systemd/system/table-noir-kiosk.service
systemctl daemon-reload
systemctl enable table-noir-kiosk.service
# Boot to the console, not a desktop: the unit starts its own X server on the touchscreen.
command -v raspi-config >/dev/null && raspi-config nonint do_boot_behaviour B2 || true
echo "setup-pi: done. Reboot, and the kiosk starts on the touchscreen."
