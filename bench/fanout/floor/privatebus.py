"""A private dbus-daemon with the fan-out benchmark's limits (Debian's session policy, limits
raised so that the burst is not refused by the bus), for burst.py and permsg.py."""
import os, subprocess, time

CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>session</type><listen>unix:path=%s</listen><auth>EXTERNAL</auth>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
<limit name="max_incoming_bytes">1000000000</limit><limit name="max_outgoing_bytes">1000000000</limit>
<limit name="max_message_size">1000000000</limit><limit name="max_replies_per_connection">50000</limit>
<limit name="max_completed_connections">100000</limit><limit name="max_connections_per_user">100000</limit>
</busconfig>"""

def start(work, stderr=None):
    """Starts the bus with its socket in `work`; returns (process, address) once it listens."""
    conf = os.path.join(work, "bus.conf"); sock = os.path.join(work, "bus")
    open(conf, "w").write(CONFIG % sock)
    bus = subprocess.Popen(["dbus-daemon", "--nofork", "--config-file=" + conf], stderr=stderr)
    while not os.path.exists(sock): time.sleep(0.05)
    return bus, "unix:path=" + sock
