#!/usr/bin/env bash
# Turn a fresh Raspberry Pi OS Bookworm (Lite or Desktop, Pi 4 or Pi 5) into a Table Noir kiosk.
#
#   sudo kiosk/deploy/setup-pi.sh [--user USER] [--rotate 0|90|180|270] [--hotspot SSID] [--overlay]
#   kiosk/deploy/setup-pi.sh --dry-run DIR [same options]      (no sudo needed; changes nothing)
#
#   --user USER     the account the kiosk runs as (default: whoever called sudo)
#   --rotate DEG    turn the picture and the touches for a portrait panel (Touch Display 2: 90)
#   --hotspot SSID  also make a Wi-Fi hotspot for the players' phones (NetworkManager); the
#                   password comes from $TABLE_NOIR_HOTSPOT_PSK (8-63 characters), never the command line
#   --overlay       read-only root file system (raspi-config's overlay), so pulling the plug cannot
#                   damage the SD card; games and the site config go on the ext4 partition labelled TNDATA
#   --dry-run DIR   record every step in DIR/steps.log and write the files it would write under DIR/root
#   --board pi5|pi4, --image lite|desktop
#                   with --dry-run: the machine to plan for, so the dry run works on any computer
#                   (a described machine is made under DIR/machine; on a Pi they default to the Pi's own)
#
# Every step is safe to repeat: packages are installed if missing, files are rewritten with the
# same content, lines are appended once, the hotspot is replaced, not duplicated.
# docs/deploy.md walks from a blank SD card to a running table, and says why each choice was made.
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=kiosk/deploy/board.sh
. "$repo/kiosk/deploy/board.sh"
root=${TN_ROOT:-}          # a fake root the tests read the machine's state from; empty on a real Pi

user=${SUDO_USER:-}
rotate=0
hotspot=""
overlay=no
dry=""
want_board=""
want_image=""
unit_name=table-noir-kiosk.service

die() { echo "setup-pi: $*" >&2; exit 1; }

while [ $# -gt 0 ]; do
  case "$1" in
    --user) user=${2:?--user needs a name}; shift 2 ;;
    --rotate) rotate=${2:?--rotate needs 0, 90, 180 or 270}; shift 2 ;;
    --hotspot) hotspot=${2:?--hotspot needs the network name (SSID)}; shift 2 ;;
    --overlay) overlay=yes; shift ;;
    --dry-run) dry=${2:?--dry-run needs a folder}; shift 2 ;;
    --board) want_board=${2:?--board needs pi5 or pi4}; shift 2 ;;
    --image) want_image=${2:?--image needs lite or desktop}; shift 2 ;;
    -h | --help) sed -n '2,18p' "$0"; exit 0 ;;
    *) die "unknown option $1 (see --help)" ;;
  esac
done

case "$rotate" in 0 | 90 | 180 | 270) ;; *) die "--rotate must be 0, 90, 180 or 270 (got $rotate)" ;; esac
[ -n "$user" ] || user=pi
case "$want_board" in "" | pi5 | pi4) ;; *) die "--board must be pi5 or pi4 (got $want_board)" ;; esac
case "$want_image" in "" | lite | desktop) ;; *) die "--image must be lite or desktop (got $want_image)" ;; esac
if [ -z "$dry" ] && [ -n "$want_board$want_image" ]; then
  die "--board and --image describe the machine for a dry run; on a Pi, setup-pi.sh reads them from the Pi itself"
fi
if [ -n "$dry" ]; then
  mkdir -p "$dry/root"
  : > "$dry/steps.log"
  if [ -n "$want_board$want_image" ]; then
    # A described machine: what setup-pi.sh reads from a Pi, for the board and image asked for.
    machine="$dry/machine"
    rm -rf "$machine"
    mkdir -p "$machine/proc/device-tree" "$machine/etc" "$machine/usr/bin" "$machine/usr/sbin"
    case "${want_board:-pi5}" in
      pi5) printf 'Raspberry Pi 5 Model B Rev 1.0\0' > "$machine/proc/device-tree/model" ;;
      pi4) printf 'Raspberry Pi 4 Model B Rev 1.5\0' > "$machine/proc/device-tree/model" ;;
    esac
    printf 'root:x:0:0::/root:/bin/bash\n%s:x:1000:1000::/home/%s:/bin/bash\n' "$user" "$user" > "$machine/etc/passwd"
    for group in gpio i2c dialout video render input spi; do echo "$group:x:900:"; done > "$machine/etc/group"
    echo "PARTUUID=00000000-02  /  ext4  defaults,noatime  0  1" > "$machine/etc/fstab"
    : > "$machine/usr/bin/raspi-config"
    : > "$machine/usr/bin/nmcli"
    [ "${want_image:-lite}" = desktop ] && : > "$machine/usr/sbin/lightdm"
    root=$machine
    export TN_ROOT=$machine
  fi
else
  [ "$(id -u)" -eq 0 ] || die "run me with sudo (or try --dry-run DIR first)"
fi

# -- how every step is taken (or, in a dry run, recorded) ------------------------------------

say() {
  echo "setup-pi: $*"
  [ -z "$dry" ] || echo "# $*" >> "$dry/steps.log"
}

run() {  # run a command, or record it
  if [ -n "$dry" ]; then
    { printf 'run:'; printf ' %q' "$@"; printf '\n'; } >> "$dry/steps.log"
  else
    "$@"
  fi
}

as_user() {  # run a command as the kiosk's user, in the repository
  run runuser -u "$user" -- env -C "$repo" "$@"
}

put() {  # put FILE MODE: write stdin to FILE if it differs (in a dry run, under DIR/root)
  local file=$1 mode=$2 target content
  content=$(cat)
  target=$file
  if [ -n "$dry" ]; then
    target="$dry/root$file"
    echo "write: $file ($mode)" >> "$dry/steps.log"
  fi
  if [ -f "$target" ] && [ "$(cat "$target")" = "$content" ]; then
    return 0
  fi
  mkdir -p "$(dirname "$target")"
  printf '%s\n' "$content" > "$target"
  chmod "$mode" "$target"
}

append_once() {  # append_once FILE LINE: add LINE to FILE unless it is already there
  local file=$1 line=$2
  if [ -f "$root$file" ] && grep -qxF -- "$line" "$root$file"; then
    return 0
  fi
  if [ -n "$dry" ]; then
    echo "append: $file: $line" >> "$dry/steps.log"
  else
    printf '%s\n' "$line" >> "$file"
  fi
}

have() { [ -e "$root$1" ]; }  # a file on the machine being set up

# -- what machine is this -----------------------------------------------------------------

board=$(pi_board)
case "$board" in
  pi5 | pi4) say "board: $(pi_model)" ;;
  pi-other) say "board: $(pi_model) (only the Pi 4 and Pi 5 are tested; carrying on)" ;;
  *) die "this is not a Raspberry Pi (no model in /proc/device-tree); the kiosk runs on a desktop with ./tn run; to see what setup-pi.sh would do on a Pi, add --board pi5|pi4 --image lite|desktop to --dry-run DIR" ;;
esac
if have /usr/sbin/lightdm; then image=desktop; else image=lite; fi
say "image: Raspberry Pi OS $image"
home=$(awk -F: -v u="$user" '$1 == u { print $6 }' "$root/etc/passwd")
[ -n "$home" ] || die "no user called $user (pass --user NAME)"
if [ "$overlay" = yes ]; then
  data=/srv/table-noir
  site_config=$data/table-noir.toml
else
  data=$home/.local/share/table-noir
  site_config=$home/.config/table-noir/table-noir.toml
fi
psk=""
if [ -n "$hotspot" ]; then
  psk=${TABLE_NOIR_HOTSPOT_PSK:-}
  if [ ${#psk} -lt 8 ] || [ ${#psk} -gt 63 ]; then
    die "--hotspot needs its password in TABLE_NOIR_HOTSPOT_PSK, 8 to 63 characters"
  fi
  have /usr/bin/nmcli || die "--hotspot needs NetworkManager (nmcli), Bookworm's default; it is not installed"
fi
if [ "$overlay" = yes ] && ! have /dev/disk/by-label/TNDATA; then
  die "--overlay needs an ext4 partition labelled TNDATA for the games (docs/deploy.md, step 2); none found"
fi

# -- packages ---------------------------------------------------------------------------------

say "system packages"
packages=(
  python3-venv python3-dev swig liblgpio-dev                 # .venv, and lgpio's build if no wheel fits
  libsdl2-2.0-0 libsdl2-image-2.0-0 libsdl2-mixer-2.0-0 libsdl2-ttf-2.0-0 libgl1 libgles2 libmtdev1  # Kivy
  xserver-xorg-core xserver-xorg-input-libinput xserver-xorg-legacy xinit x11-xserver-utils  # bare X
  i2c-tools
)
run apt-get update -qq
run env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${packages[@]}"

say "I2C on (the VL53L0X in the minimal build)"
run raspi-config nonint do_i2c 0

say "groups for $user: pins, I2C, the tray's USB serial, the GPU"
for group in gpio i2c dialout video render; do
  if grep -q "^$group:" "$root/etc/group"; then
    run usermod -aG "$group" "$user"
  fi
done

# -- Python ---------------------------------------------------------------------------------

say "Python environment in $repo/.venv with the Pi extras"
have "$repo/.venv/bin/python" || as_user python3 -m venv .venv
as_user .venv/bin/python -m pip install -q --upgrade pip
as_user .venv/bin/python -m pip install -q -e ".[pi]"

# gpiozero tries pin libraries in turn and warns when it falls back. lgpio is the one that
# works on both boards under Bookworm (RPi.GPIO cannot reach the Pi 5's pins), so the unit
# names it outright, and this check shows what gpiozero picks, warnings and all.
say "pin library gpiozero picks (lgpio expected)"
as_user env GPIOZERO_PIN_FACTORY=lgpio .venv/bin/python -W always -c \
  'from gpiozero import Device; Device.ensure_pin_factory(); print("gpiozero pin factory:", type(Device.pin_factory).__name__)'

# -- the screen ----------------------------------------------------------------------------

say "bare X for the kiosk: the kiosk user may start it on the console"
put /etc/X11/Xwrapper.config 644 <<'EOF'
allowed_users=anybody
needs_root_rights=yes
EOF
if [ "$board" = pi5 ]; then
  # The Pi 5 has two DRM devices (v3d renders, vc4 drives the display); X must use vc4.
  say "Pi 5: X drives the display through vc4"
  put /etc/X11/xorg.conf.d/99-table-noir-vc4.conf 644 <<'EOF'
Section "OutputClass"
  Identifier "vc4"
  MatchDriver "vc4"
  Driver "modesetting"
  Option "PrimaryGPU" "true"
EndSection
EOF
fi
if [ "$image" = desktop ]; then
  say "Desktop image: boot to the console, not the desktop (the kiosk is the only thing on screen)"
  run systemctl set-default multi-user.target
fi
say "console login without autologin; the kiosk unit takes tty1 from the login prompt"
run raspi-config nonint do_boot_behaviour B1

# -- where games and the site config live -------------------------------------------------

if [ "$overlay" = yes ]; then
  say "data partition TNDATA mounted on $data (it stays writable under the overlay)"
  run mkdir -p "$data"
  append_once /etc/fstab "LABEL=TNDATA $data ext4 defaults,noatime,nofail 0 2"
  if ! grep -qs " $data " "$root/proc/mounts"; then
    run mount "$data"
  fi
  run chown "$user:" "$data"
fi
say "data folder $data and site config $site_config"
as_user mkdir -p "$data" "$(dirname "$site_config")"
if ! have "$site_config"; then
  put "$site_config" 644 <<'EOF'
# This table's own settings, laid over hardware/table-noir.toml.
# The hardware setup on the touchscreen (first boot, or the operator menu) writes the pads and the tray here.
EOF
  run chown "$user:" "$site_config"
fi

# -- phones: a Wi-Fi hotspot ----------------------------------------------------------------

if [ -n "$hotspot" ]; then
  say "Wi-Fi hotspot \"$hotspot\" for phones (NetworkManager keyfile; the password is not shown)"
  keyfile=/etc/NetworkManager/system-connections/table-noir-hotspot.nmconnection
  shown_psk=$psk
  [ -z "$dry" ] || shown_psk="********"   # a dry run's files are for reading: no password in them
  put "$keyfile" 600 <<EOF
[connection]
id=table-noir-hotspot
type=wifi
interface-name=wlan0
autoconnect=true

[wifi]
mode=ap
ssid=$hotspot
band=bg

[wifi-security]
key-mgmt=wpa-psk
psk=$shown_psk

[ipv4]
method=shared

[ipv6]
method=disabled
EOF
  run nmcli connection reload
  run nmcli connection up table-noir-hotspot
fi

# -- the systemd units ------------------------------------------------------------------------

say "systemd unit $unit_name (and the screen that says why if it gives up)"
render() {
  sed -e "s|@USER@|$user|g" -e "s|@REPO@|$repo|g" -e "s|@HOME@|$home|g" -e "s|@ROTATION@|$rotate|g" \
    -e "s|@DATA@|$data|g" -e "s|@CONFIG@|$site_config|g" "$repo/kiosk/deploy/$1"
}
render table-noir-kiosk.service | put "/etc/systemd/system/$unit_name" 644
render table-noir-kiosk-failed.service | put /etc/systemd/system/table-noir-kiosk-failed.service 644
run systemctl daemon-reload
run systemctl enable "$unit_name"

if [ "$overlay" = yes ]; then
  # Last: from the next boot on, changes to the root file system vanish at power-off.
  say "read-only root (overlay file system) from the next boot; undo with: sudo raspi-config nonint do_overlayfs 1"
  run raspi-config nonint do_overlayfs 0
fi

say "done. Reboot, and the kiosk starts on the touchscreen (its hardware setup opens on first boot)."
