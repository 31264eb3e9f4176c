#!/usr/bin/env bash
# Put on the console why the kiosk stopped, once systemd has given up restarting it.
# Run by table-noir-kiosk-failed.service with its output on tty1 (the touchscreen).
set -uo pipefail
unit=${1:-table-noir-kiosk.service}
printf '\033c'  # a clean screen
cat <<TEXT
TABLE NOIR: the kiosk stopped.

It failed the same way several times in a row at start-up, so it is no longer restarted.
The last thing it said:

TEXT
journalctl --unit "$unit" --boot --lines 15 --no-pager --output cat 2>/dev/null | cut -c1-160
cat <<TEXT

What to do: fix what is named above (a keyboard helps: Ctrl+Alt+F2 gives a login prompt),
then start it again with
    sudo systemctl reset-failed $unit && sudo systemctl start $unit
or simply turn the table off and on.
TEXT
