#!/bin/sh
# Inside a private PID/mount/network namespace: Open vSwitch with its state on tmpfs.
# Kernels without the openvswitch module (no CONFIG_OPENVSWITCH) get the userspace
# datapath: a wrapper bind-mounted over ovs-vsctl gives every bridge Mininet adds
# datapath_type=netdev, and OpenFlow 1.0 only, since ovs-testcontroller 3.1 sends
# OF1.5 packet-outs the switch rejects (OFPBMC_BAD_MASK) and then exits. There the test
# controller also gets --wildcards (its L2-only flows, one per port and MAC pair, not one
# per IP pair): on the userspace datapath each new exact-match flow costs the single
# ovs-vswitchd thread so much that the first pingall after a repair on 8x4 (a hundred new
# IP pairs per host at once) misses the 0.1 s ping timeout. OVS_EXACT_FLOWS=1 keeps
# the controller's exact-match flows.
set -e
mount --make-rprivate /
for d in /var/run/openvswitch /var/log/openvswitch /etc/openvswitch /mnt; do
  mkdir -p "$d"; mount -t tmpfs tmpfs "$d"
done
ip link set lo up
ovsdb-tool create /etc/openvswitch/conf.db /usr/share/openvswitch/vswitch.ovsschema
ovsdb-server --remote=punix:/var/run/openvswitch/db.sock --pidfile --detach \
  --log-file=/var/log/openvswitch/ovsdb-server.log /etc/openvswitch/conf.db
ovs-vsctl --no-wait init
ovs-vswitchd --pidfile --detach --log-file=/var/log/openvswitch/ovs-vswitchd.log
if [ "${OVS_KERNEL:-0}" != 1 ]; then
  cp "$(command -v ovs-vsctl)" /mnt/ovs-vsctl.real
  cat > /mnt/ovs-vsctl <<'EOS'
#!/bin/sh
extra=""; prev=""
for a in "$@"; do
  [ "$prev" = "add-br" ] && extra="$extra -- set bridge $a datapath_type=netdev protocols=OpenFlow10"
  prev="$a"
done
exec /mnt/ovs-vsctl.real "$@" $extra
EOS
  chmod +x /mnt/ovs-vsctl
  mount --bind /mnt/ovs-vsctl "$(command -v ovs-vsctl)"
  if [ "${OVS_EXACT_FLOWS:-0}" != 1 ]; then
    # The real binary keeps its name (Mininet stops the controller by its job name).
    mkdir -p /mnt/real
    cp "$(command -v ovs-testcontroller)" /mnt/real/ovs-testcontroller
    printf '#!/bin/sh\nexec /mnt/real/ovs-testcontroller --wildcards "$@"\n' > /mnt/ovs-testcontroller
    chmod +x /mnt/ovs-testcontroller
    mount --bind /mnt/ovs-testcontroller "$(command -v ovs-testcontroller)"
  fi
fi
