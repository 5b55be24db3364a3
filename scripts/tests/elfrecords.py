# SPDX-License-Identifier: GPL-2.0
"""A small, independent ELF reader for the recordmcount tests.

It reads relocatable objects of either class and byte order (including
64-bit MIPS, whose r_info is laid out differently) and answers two
questions: which addresses do the object's __mcount_loc tables record, and
which relocations does its code hold.  An address is given as
(section name, offset), so that two objects whose tables name different
symbols of the same section compare equal when they record the same place.
"""
import struct

SHT_SYMTAB, SHT_RELA, SHT_REL = 2, 4, 9
EM_MIPS = 8


class Elf:
    def __init__(self, path):
        with open(path, 'rb') as f:
            self.data = d = f.read()
        if d[:4] != b'\x7fELF':
            raise ValueError('%s: not ELF' % path)
        self.is64 = d[4] == 2
        self.e = '<' if d[5] == 1 else '>'
        self.machine = self.u(18, 2)
        if self.is64:
            shoff, shent, shnum, shstr = (self.u(40, 8), self.u(58, 2),
                                          self.u(60, 2), self.u(62, 2))
        else:
            shoff, shent, shnum, shstr = (self.u(32, 4), self.u(46, 2),
                                          self.u(48, 2), self.u(50, 2))
        self.secs = [self.shdr(shoff + i * shent) for i in range(shnum)]
        names = self.secs[shstr]
        for s in self.secs:
            s['name'] = self.cstr(names['offset'] + s['name_off'])
        self.syms = []
        for s in self.secs:
            if s['type'] == SHT_SYMTAB:
                self.symtab = s
                strtab = self.secs[s['link']]
                n = s['size'] // s['entsize']
                for i in range(n):
                    sym = self.sym(s['offset'] + i * s['entsize'])
                    sym['name'] = self.cstr(strtab['offset'] + sym['name_off'])
                    self.syms.append(sym)

    def u(self, off, width, signed=False):
        fmt = {1: 'B', 2: 'H', 4: 'I', 8: 'Q'}[width]
        if signed:
            fmt = fmt.lower()
        return struct.unpack_from(self.e + fmt, self.data, off)[0]

    def cstr(self, off):
        return self.data[off:self.data.index(b'\0', off)].decode()

    def shdr(self, b):
        if self.is64:
            f = [(0, 4), (4, 4), (8, 8), (24, 8), (32, 8), (40, 4), (44, 4),
                 (56, 8)]
        else:
            f = [(0, 4), (4, 4), (8, 4), (16, 4), (20, 4), (24, 4), (28, 4),
                 (36, 4)]
        keys = ['name_off', 'type', 'flags', 'offset', 'size', 'link', 'info',
                'entsize']
        return {k: self.u(b + o, w) for k, (o, w) in zip(keys, f)}

    def sym(self, b):
        if self.is64:
            return dict(name_off=self.u(b, 4), info=self.u(b + 4, 1),
                        shndx=self.u(b + 6, 2), value=self.u(b + 8, 8))
        return dict(name_off=self.u(b, 4), value=self.u(b + 4, 4),
                    info=self.u(b + 12, 1), shndx=self.u(b + 14, 2))

    def relocs(self, rs):
        """(offset, sym, type, addend or None) of relocation section rs."""
        out = []
        w = 8 if self.is64 else 4
        for i in range(rs['size'] // rs['entsize']):
            b = rs['offset'] + i * rs['entsize']
            off, info = self.u(b, w), self.u(b + w, w)
            if self.is64 and self.machine == EM_MIPS:
                # r_sym (4 bytes, file order), ssym, type3, type2, type.
                sym = self.u(b + 8, 4)
                typ = self.data[b + 15]
            elif self.is64:
                sym, typ = info >> 32, info & 0xffffffff
            else:
                sym, typ = info >> 8, info & 0xff
            add = (self.u(b + 2 * w, w, signed=True)
                   if rs['type'] == SHT_RELA else None)
            out.append((off, sym, typ, add))
        return out

    def records(self):
        """Sorted (section, offset, rel kind, reloc type) of every record."""
        w = 8 if self.is64 else 4
        mask = (1 << (8 * w)) - 1
        out = []
        for rs in self.secs:
            if rs['type'] not in (SHT_REL, SHT_RELA):
                continue
            tab = self.secs[rs['info']]
            if tab['name'] != '__mcount_loc':
                continue
            for off, symi, typ, add in self.relocs(rs):
                if add is None:
                    add = self.u(tab['offset'] + off, w, signed=True)
                sym = self.syms[symi]
                sec = self.secs[sym['shndx']]['name']
                kind = 'rela' if rs['type'] == SHT_RELA else 'rel'
                out.append((sec, (sym['value'] + add) & mask, kind, typ))
        return sorted(out)

    def code_relocs(self):
        """{section name: [(offset, symbol name, type)]} for code sections."""
        out = {}
        for rs in self.secs:
            if rs['type'] not in (SHT_REL, SHT_RELA):
                continue
            tab = self.secs[rs['info']]
            if not tab['flags'] & 4:        # SHF_EXECINSTR
                continue
            out[tab['name']] = [(off, self.syms[s]['name'], t)
                                for off, s, t, _ in self.relocs(rs)]
        return out
