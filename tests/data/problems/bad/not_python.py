this is not python at all (
