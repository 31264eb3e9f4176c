# Which Raspberry Pi this is, read from the device tree. Sourced by setup-pi.sh and
# scripts/bootstrap.sh (so `./tn run` on a Pi installs the Pi extras).
# shellcheck shell=bash
#
# pi_board prints pi5, pi4, pi-other (an older or unknown Pi), or nothing (not a Pi).
# TN_ROOT, if set, is a fake root to read from (the tests' boards).

pi_model() {
  local model=""
  if [ -r "${TN_ROOT:-}/proc/device-tree/model" ]; then
    model=$(tr -d '\0' < "${TN_ROOT:-}/proc/device-tree/model")
  fi
  printf '%s\n' "$model"
}

pi_board() {
  case "$(pi_model)" in
    "Raspberry Pi 5"* | "Raspberry Pi Compute Module 5"*) echo pi5 ;;
    "Raspberry Pi 4"* | "Raspberry Pi Compute Module 4"*) echo pi4 ;;  # the Pi 400 too
    "Raspberry Pi"*) echo pi-other ;;
    *) echo "" ;;
  esac
}
