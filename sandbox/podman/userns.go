package podman

// idMappings is containers/storage's IDMappingOptions (no JSON tags, so
// Go field names).
type idMappings struct {
	HostUIDMapping bool
	HostGIDMapping bool
	UIDMap         []idMap
	GIDMap         []idMap
}

type idMap struct {
	ContainerID int `json:"container_id"`
	HostID      int `json:"host_id"`
	Size        int `json:"size"`
}

// keepID is Podman's keep-id user namespace spelled out.
type keepID struct {
	uid, gid   int
	uids, gids []idMap
}

// keepIDMapping computes what --userns=keep-id would from /info's rootless
// mappings. Podman 4.x computes keep-id with libsubid, which is not
// thread-safe: concurrent keep-id creates crash the service (SIGSEGV in
// subid_get_uid_ranges, podman#23264), explicit mappings do not touch it.
// It returns nil when the mappings do not look like a rootless service's.
func keepIDMapping(info hostInfo) *keepID {
	uid, uids, ok1 := keepIDMap(info.Host.IDMappings.UIDMap)
	gid, gids, ok2 := keepIDMap(info.Host.IDMappings.GIDMap)
	if !ok1 || !ok2 {
		return nil
	}
	return &keepID{uid: uid, gid: gid, uids: uids, gids: gids}
}

// keepIDMap maps container id `id` (the user's host id) to the user (0 in
// the service's namespace), and the ids around it to the subordinate ids,
// as Podman's GetKeepIDMapping does.
func keepIDMap(ns []idMap) (int, []idMap, bool) {
	id, total := -1, 0
	for _, m := range ns {
		if m.ContainerID == 0 && m.Size == 1 {
			id = m.HostID
		} else {
			total += m.Size
		}
	}
	if id <= 0 || total == 0 {
		return 0, nil, false
	}
	out := []idMap{{ContainerID: 0, HostID: 1, Size: min(id, total)}, {ContainerID: id, HostID: 0, Size: 1}}
	if total > id {
		out = append(out, idMap{ContainerID: id + 1, HostID: id + 1, Size: total - id})
	}
	return id, out, true
}
