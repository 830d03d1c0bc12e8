#!/bin/sh
# Inside a private PID/mount/network namespace: Open vSwitch with its state on tmpfs.
# Kernels without the openvswitch module (no CONFIG_OPENVSWITCH) get the userspace
# datapath: a wrapper bind-mounted over ovs-vsctl gives every bridge Mininet adds
# datapath_type=netdev, and OpenFlow 1.0 only, since ovs-testcontroller 3.1 sends
# OF1.5 packet-outs the switch rejects (OFPBMC_BAD_MASK) and then exits.
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
fi
