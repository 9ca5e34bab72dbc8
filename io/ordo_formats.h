/*
 * ordo_formats.h - the table of file formats, one line each (an X-macro list, included
 * more than once, so no include guard).
 *
 *   ORDO_FORMAT(ID, descriptor)
 *
 * makes the public id ORDO_FMT_<ID> (enum ordo_format, in this order: append new
 * formats, so existing ids keep their values) and registers `descriptor`, a
 * `const struct io_format` (io/io_internal.h) defined in the format's own file, which
 * names the format, its extensions, its content test and its reader and writer. Adding
 * a format is one file in io/ and one line here.
 */
ORDO_FORMAT(DIMACS, io_format_dimacs)
ORDO_FORMAT(CO, io_format_co)
ORDO_FORMAT(METIS, io_format_metis)
ORDO_FORMAT(XYZ, io_format_xyz)
ORDO_FORMAT(EDGELIST, io_format_edgelist)
ORDO_FORMAT(MTX, io_format_mtx)
ORDO_FORMAT(GALOIS, io_format_galois)
ORDO_FORMAT(NATIVE, io_format_native)
ORDO_FORMAT(LIGRA, io_format_ligra)
ORDO_FORMAT(GAPBS, io_format_gapbs)
