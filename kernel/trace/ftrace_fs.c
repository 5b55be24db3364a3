// SPDX-License-Identifier: GPL-2.0
/*
 * The core's tracefs files.
 *
 *   available_filter_functions  every record, "%ps" (module in brackets)
 *   available_filter_functions_addrs  the same, after the site's address
 *                               in hex (the file of upstream 6.5)
 *   enabled_functions           records whose site calls something now
 *   touched_functions           records some ops has wanted since boot, in
 *                               the format of upstream 6.4 (with its O and M
 *                               columns)
 *   set_ftrace_filter/_notrace  an ops' hashes (global_ops at top level)
 *   set_graph_function/_notrace the function_graph hashes
 *
 * Writing a filter file edits a private copy of the hash (and of the list
 * of ":mod:" words waiting for their module); the copies are published
 * when the file is closed.  A word that selects nothing fails its write
 * and changes nothing; the accepted words are published, unless not one
 * was accepted, so a lone bad name leaves the filter as it was.  Opening
 * with O_TRUNC (">") starts from empty copies, appending (">>") from the
 * current ones.
 *
 * Reading walks the records by position: positions below the record count
 * are records, the one after them prints the extra lines (the "all
 * functions" banner, pending module filters, probes).
 */
#include <linux/kallsyms.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/tracefs.h>
#include <linux/uaccess.h>

#include "ftrace_core.h"

/*
 * Size of the word buffer: a filter word may be as long as a full symbol
 * string ("name+off/size [module build-id]") plus a few glob characters.
 * Scripts rely on the exact limit, so it is the one 6.1 accepted.
 */
#define FTRACE_WORD_MAX	(KSYM_SYMBOL_LEN + 4)

enum fs_kind { FS_AVAIL, FS_AVAIL_ADDRS, FS_ENABLED, FS_TOUCHED, FS_FILTER,
	       FS_NOTRACE, FS_GRAPH, FS_GRAPH_NOTRACE };

struct fs_iter {
	enum fs_kind kind;
	struct ftrace_ops *ops;
	struct trace_array *tr;
	struct ftrace_hash *shown;	/* snapshot for reading */
	struct ftrace_hash *hash;	/* private copy for writing */
	/*
	 * Writers of one open file (pwrite(2) does not take the file
	 * position lock) share @parser, @hash and @mods: one at a time, from
	 * reading the word to running its command.
	 */
	struct mutex write_lock;
	struct trace_parser parser;
	struct list_head mods;		/* private ":mod:" waiting list */
	unsigned int ok;		/* words applied */
	unsigned int failed;		/* words refused */
	bool tr_ref;		/* holds a reference on @tr */
	/* seq position */
	struct ftrace_block *b;
	unsigned int i;
	loff_t b_pos;		/* position of @b's first record */
	bool at_end;		/* @end is known */
	loff_t end;		/* position of the extra lines, after the records */
	/* naming records in order: vmlinux's, and a module's */
	struct kallsyms_walk walk;
	struct ftrace_mod_walk mod_walk;
	char name[KSYM_NAME_LEN];
};

static bool want_rec(struct fs_iter *it, struct ftrace_block *b,
		     struct ftrace_rec *r)
{
	switch (it->kind) {
	case FS_AVAIL:
	case FS_AVAIL_ADDRS:
		return !(r->flags & FTRACE_FL_DISABLED);
	case FS_ENABLED:
		return r->flags & FTRACE_FL_ENABLED;
	case FS_TOUCHED:
		return r->flags & REC_TOUCHED;
	default:
		return ftrace_lookup_ip(it->shown, ftrace_rec_ip(b, r));
	}
}

/*
 * Can block @b hold a record a filter file shows?  Reading a small filter
 * should not cost a look-up for each of the kernel's call sites: a hash
 * of a few entries is compared with the block's address range instead
 * (records are sorted within a block).
 */
static bool block_may_show(struct fs_iter *it, struct ftrace_block *b)
{
	struct ftrace_func_entry *e;
	unsigned long lo, hi, i;

	if (it->kind < FS_FILTER)
		return true;
	if (!it->shown || !it->shown->count || !b->count)
		return false;
	if (it->shown->count > 64)
		return true;
	lo = ftrace_rec_ip(b, &b->recs[0]);
	hi = ftrace_rec_ip(b, &b->recs[b->count - 1]);
	for_each_hash_entry(it->shown, i, e)
		if (e->ip >= lo && e->ip <= hi)
			return true;
	return false;
}

/*
 * Move to the first shown record at or after record number *pos.
 *
 * Positions count records, shown or not, so a module loaded or unloaded
 * between two read(2) calls moves the end.  The extra lines (":mod:"
 * words, probes) therefore keep the position at which this pass first
 * walked past the last record: they are listed once, whatever changed.
 * A pass starts at position 0 (see fs_start()).
 */
static void *seek_rec(struct fs_iter *it, loff_t *pos)
{
	struct ftrace_block *b = it->b;
	loff_t n = *pos - it->b_pos;

	if (it->at_end && *pos >= it->end)
		return *pos == it->end && it->kind >= FS_FILTER ?
			SEQ_START_TOKEN : NULL;
	/*
	 * From the block of the record shown last, when fs_next() moves on
	 * under the same hold of ftrace_lock; from the first block otherwise.
	 */
	if (!b || n < 0) {
		b = rcu_dereference_protected(ftrace_blocks,
					      lockdep_is_held(&ftrace_lock));
		n = *pos;
	}
	for (; b; b = rcu_dereference_protected(b->next,
						lockdep_is_held(&ftrace_lock))) {
		if (n >= b->count) {
			n -= b->count;
			continue;
		}
		if (!block_may_show(it, b)) {
			*pos += b->count - n;
			n = 0;
			continue;
		}
		for (; n < b->count; n++, (*pos)++) {
			if (want_rec(it, b, &b->recs[n])) {
				it->b = b;
				it->i = n;
				it->b_pos = *pos - n;
				return it;
			}
		}
		n = 0;
	}
	/* One more position after the records, for the extra lines. */
	it->b = NULL;
	it->at_end = true;
	it->end = *pos;
	return it->kind >= FS_FILTER ? SEQ_START_TOKEN : NULL;
}

static void *fs_start(struct seq_file *m, loff_t *pos)
{
	struct fs_iter *it = m->private;

	/* Held until fs_stop(): seq_file's ->start and ->stop, so no guard. */
	mutex_lock(&ftrace_lock);
	/* The blocks may have changed since the last read(2). */
	it->b = NULL;
	/*
	 * Position 0 starts a new pass: the first read, or a reader that
	 * moved (lseek(2), pread(2) elsewhere than where it stopped), which
	 * seq_file walks again from 0.  A new pass lists the records there
	 * are now, so their end is found again.
	 */
	if (!*pos)
		it->at_end = false;
	return seek_rec(it, pos);
}

static void *fs_next(struct seq_file *m, void *v, loff_t *pos)
{
	struct fs_iter *it = m->private;

	(*pos)++;
	if (v == SEQ_START_TOKEN)
		return NULL;
	return seek_rec(it, pos);
}

static void fs_stop(struct seq_file *m, void *v)
{
	struct fs_iter *it = m->private;

	/* The whole file read: the last module's sorted symbols go. */
	if (!v)
		ftrace_mod_walk_free(&it->mod_walk);
	/* Taken in fs_start(). */
	mutex_unlock(&ftrace_lock);
}

/* " ->func": what the arch says the trampoline (or caller) calls. */
static void show_callee(struct seq_file *m, struct ftrace_ops *op,
			struct ftrace_rec *r)
{
	void *callee;

	callee = ftrace_arch_tramp_callee(op, r->flags & FTRACE_FL_REGS_EN);
	if (callee)
		seq_printf(m, " ->%pS", callee);
}

/*
 * The flags of an enabled_functions line, and what the site calls.
 * touched_functions (@touched) has two more columns, as in 6.4: " O" for
 * a site that calls its ops through a pointer beside the function (never,
 * here) and " M " for one that an IP-modifying or direct ops has wanted.
 */
static void show_enabled(struct seq_file *m, struct ftrace_block *b,
			 struct ftrace_rec *r, bool touched)
{
	unsigned long ip = ftrace_rec_ip(b, r), target;
	struct ftrace_ops *op = NULL;
	u32 f = r->flags;

	seq_printf(m, " (%u)%s%s%s", ftrace_rec_refs(r),
		   f & FTRACE_FL_REGS ? " R" : "  ",
		   f & FTRACE_FL_IPMODIFY ? " I" : "  ",
		   f & FTRACE_FL_DIRECT ? " D" : "  ");
	if (touched)
		seq_printf(m, "  %s", f & REC_MODIFIED ? " M " : "   ");
	target = ftrace_site_target(ip);
	if ((f & FTRACE_FL_TRAMP_EN) && target) {
		op = ftrace_ops_trampoline(target);
		seq_printf(m, "\ttramp: %pS (%pS)", (void *)target,
			   op ? (void *)op->func : NULL);
	}
	show_callee(m, op, r);
	if ((f & FTRACE_FL_DIRECT) && ftrace_find_rec_direct(ip))
		seq_printf(m, "\n\tdirect-->%pS",
			   (void *)ftrace_find_rec_direct(ip));
}

static void show_extras(struct seq_file *m, struct fs_iter *it)
{
	if (ftrace_hash_empty(it->shown) && it->kind != FS_GRAPH_NOTRACE &&
	    it->kind != FS_NOTRACE)
		seq_puts(m, "#### all functions enabled ####\n");
	if (ftrace_hash_empty(it->shown) &&
	    (it->kind == FS_NOTRACE || it->kind == FS_GRAPH_NOTRACE))
		seq_puts(m, "#### no functions disabled ####\n");
	if (it->kind == FS_FILTER || it->kind == FS_NOTRACE)
		ftrace_mod_show(m, it->tr, it->kind == FS_FILTER);
	if (it->kind == FS_FILTER && it->tr)
		ftrace_probes_show(m, it->tr);
}

static int fs_show(struct seq_file *m, void *v)
{
	struct fs_iter *it = m->private;
	struct ftrace_rec *r;
	const char *name;
	unsigned long ip;

	if (v == SEQ_START_TOKEN) {
		show_extras(m, it);
		return 0;
	}
	r = &it->b->recs[it->i];
	ip = ftrace_rec_ip(it->b, r);
	if (it->kind == FS_AVAIL_ADDRS) {
		seq_put_hex_ll(m, NULL, ip, 0);
		seq_putc(m, ' ');
	}
	/*
	 * Records come in address order, so names are taken one after the
	 * other from kallsyms' sorted names or the module's sorted symbols:
	 * what "%ps" prints, the module in brackets.
	 */
	if (it->b->mod)
		name = ftrace_mod_walk_name(&it->mod_walk, it->b->mod, ip,
					    it->name);
	else
		name = kallsyms_walk_name(&it->walk, ip, it->name);
	if (!name)
		seq_printf(m, "%ps", (void *)ip);
	else if (it->b->mod)
		seq_printf(m, "%s [%s]", name, module_name(it->b->mod));
	else
		seq_puts(m, name);
	if (it->kind == FS_ENABLED || it->kind == FS_TOUCHED)
		show_enabled(m, it->b, r, it->kind == FS_TOUCHED);
	seq_putc(m, '\n');
	return 0;
}

static const struct seq_operations fs_seq_ops = {
	.start = fs_start,
	.next = fs_next,
	.stop = fs_stop,
	.show = fs_show,
};

static struct ftrace_hash __rcu **target_slot(struct fs_iter *it)
{
	switch (it->kind) {
	case FS_FILTER:
		return &it->ops->func_hash->filter_hash;
	case FS_NOTRACE:
		return &it->ops->func_hash->notrace_hash;
	case FS_GRAPH:
		return &ftrace_graph_hash;
	case FS_GRAPH_NOTRACE:
		return &ftrace_graph_notrace_hash;
	default:
		return NULL;
	}
}

static void fs_iter_free(struct fs_iter *it)
{
	ftrace_mod_walk_free(&it->mod_walk);
	ftrace_mods_free(&it->mods);
	ftrace_hash_free(it->shown);
	ftrace_hash_free(it->hash);
	trace_parser_put(&it->parser);
	mutex_destroy(&it->write_lock);
	kfree(it);
}

/* Do the file's words wait for modules (set_ftrace_filter/_notrace)? */
static bool has_mods(struct fs_iter *it)
{
	return (it->kind == FS_FILTER || it->kind == FS_NOTRACE) && it->tr;
}

/* fs_open()'s copies of the hash @slot holds (and of the ":mod:" words). */
static int fs_copy(struct fs_iter *it, struct file *file,
		   struct ftrace_hash __rcu **slot)
{
	struct ftrace_hash *cur;

	guard(mutex)(&ftrace_lock);
	cur = slot ? rcu_dereference_protected(*slot,
					       lockdep_is_held(&ftrace_lock)) : NULL;
	if (slot && (file->f_mode & FMODE_READ)) {
		it->shown = ftrace_hash_copy(cur);
		if (!it->shown)
			return -ENOMEM;
	}
	if (slot && (file->f_mode & FMODE_WRITE)) {
		if (trace_parser_get_init(&it->parser, FTRACE_WORD_MAX))
			return -ENOMEM;
		/*
		 * With O_TRUNC the copy starts empty: the shared empty hash
		 * until a word needs a table (edit_hash()), so that clearing
		 * a filter allocates nothing.
		 */
		it->hash = (file->f_flags & O_TRUNC) ? &ftrace_empty_hash :
						       ftrace_hash_copy(cur);
		if (!it->hash)
			return -ENOMEM;
		if (has_mods(it) && !(file->f_flags & O_TRUNC) &&
		    ftrace_mods_copy(&it->mods, it->tr, it->kind == FS_FILTER))
			return -ENOMEM;
	}
	return 0;
}

static int fs_open(struct inode *inode, struct file *file, enum fs_kind kind,
		   struct ftrace_ops *ops, struct trace_array *tr)
{
	struct fs_iter *it;
	int ret;

	/* As in 6.1: once ftrace is dead its files cannot be opened. */
	if (ftrace_dead)
		return -ENODEV;
	it = kzalloc(sizeof(*it), GFP_KERNEL);
	if (!it)
		return -ENOMEM;
	it->kind = kind;
	it->ops = ops;
	it->tr = tr;
	mutex_init(&it->write_lock);
	INIT_LIST_HEAD(&it->mods);
	/* Commands at the top level act on the global trace array. */
	if (!tr && ops == &global_ops)
		it->tr = global_ops.private;
	if (ops)
		ftrace_ops_init(ops);
	ret = fs_copy(it, file, target_slot(it));
	if (ret) {
		fs_iter_free(it);
		return ret;
	}
	if (!(file->f_mode & FMODE_READ)) {
		file->private_data = it;
		return 0;
	}
	ret = seq_open(file, &fs_seq_ops);
	if (!ret) {
		((struct seq_file *)file->private_data)->private = it;
		return 0;
	}
	fs_iter_free(it);
	return ret;
}

static struct fs_iter *file_iter(struct file *file)
{
	if (file->f_mode & FMODE_READ)
		return ((struct seq_file *)file->private_data)->private;
	return file->private_data;
}

/**
 * ftrace_regex_open - open a filter file of @ops
 * @tr: the trace array the file belongs to (probes, :mod:), or NULL
 * @ops: the ops whose hash the file shows and edits
 * @flag: FTRACE_ITER_FILTER or FTRACE_ITER_NOTRACE
 * @inode: the file's inode
 * @file: the file
 *
 * Return: 0, or a negative error.
 */
int ftrace_regex_open(struct trace_array *tr, struct ftrace_ops *ops, int flag,
		      struct inode *inode, struct file *file)
{
	int ret = tracing_check_open_get_tr(tr);

	if (ret)
		return ret;
	ret = fs_open(inode, file, (flag & FTRACE_ITER_NOTRACE) ? FS_NOTRACE :
		      FS_FILTER, ops, tr);
	if (ret && tr)
		trace_array_put(tr);
	if (!ret && tr)
		file_iter(file)->tr_ref = true;
	return ret;
}

/*
 * The private hash, given a table of its own if it has none yet.  Under
 * the file's write_lock, and ftrace_lock as the rest of the word.
 */
static int edit_hash(struct fs_iter *it)
{
	struct ftrace_hash *hash;

	lockdep_assert_held(&ftrace_lock);
	if (it->hash != &ftrace_empty_hash)
		return 0;
	hash = ftrace_hash_copy(NULL);
	if (!hash)
		return -ENOMEM;
	it->hash = hash;
	return 0;
}

/*
 * The part of apply_word() under ftrace_lock.  A command word is left in
 * @cw: commands take ftrace_lock themselves.
 */
static int apply_word_locked(struct fs_iter *it, bool enable,
			     struct ftrace_command_word *cw)
{
	bool graph = it->kind == FS_GRAPH || it->kind == FS_GRAPH_NOTRACE;
	char *word = it->parser.buffer;
	unsigned long before;
	int ret;

	ret = edit_hash(it);
	if (ret)
		return ret;
	if (has_mods(it))
		ftrace_mods_resolve(&it->mods, it->hash);
	before = it->hash->count;
	ret = ftrace_apply_text(it->hash, word, it->parser.idx, cw,
				has_mods(it) ? &it->mods : NULL, enable);
	/*
	 * The graph files refuse a "!" word that removes nothing (the
	 * filter files take it: it matched), as 6.1 did.
	 */
	if (!ret && graph && word[0] == '!' && it->hash->count == before)
		ret = -EINVAL;
	return ret;
}

/*
 * A word with a ':' in a file that belongs to no trace array, taken as
 * 6.1 takes it: the graph files match the whole word as a name, which
 * selects nothing (-EINVAL); stack_trace_filter hands it to its command,
 * and every command, ":mod:" included, needs a trace array (-ENODEV; an
 * unknown command is -EINVAL).  0 for any other word.
 */
static int colon_word_without_tr(struct fs_iter *it)
{
	char *word = it->parser.buffer, *cmd;

	if (it->tr)
		return 0;
	cmd = strnchr(word, it->parser.idx, ':');
	if (!cmd)
		return 0;
	if (it->kind == FS_GRAPH || it->kind == FS_GRAPH_NOTRACE)
		return -EINVAL;
	cmd++;
	return ftrace_command_known(cmd, strchrnul(cmd, ':') - cmd) ?
	       -ENODEV : -EINVAL;
}

/* Apply one parsed word to the private hash. */
static int apply_word(struct fs_iter *it)
{
	bool enable = it->kind == FS_FILTER || it->kind == FS_GRAPH;
	struct ftrace_command_word cw = { };
	int ret;

	lockdep_assert_held(&it->write_lock);
	if (!trace_parser_loaded(&it->parser))
		return 0;
	ret = colon_word_without_tr(it);
	if (!ret) {
		scoped_guard(mutex, &ftrace_lock)
			ret = apply_word_locked(it, enable, &cw);
	}
	if (!ret && cw.cmd)
		ret = ftrace_run_command(it->tr, it->hash, cw.func, cw.cmd,
					 cw.params, enable);
	trace_parser_clear(&it->parser);
	if (ret < 0)
		it->failed++;
	else
		it->ok++;
	return ret;
}

static ssize_t fs_write(struct file *file, const char __user *ubuf,
			size_t cnt, loff_t *ppos)
{
	struct fs_iter *it = file_iter(file);
	ssize_t read;
	int ret;

	if (!cnt)
		return 0;
	if (!it->hash)
		return -EINVAL;
	guard(mutex)(&it->write_lock);
	read = trace_get_user(&it->parser, ubuf, cnt, ppos);
	if (read < 0) {
		it->failed++;
		return read;
	}
	if (trace_parser_loaded(&it->parser) && !trace_parser_cont(&it->parser)) {
		ret = apply_word(it);
		if (ret < 0)
			return ret;
	}
	return read;
}

/**
 * ftrace_filter_write - write handler of the filter files
 * @file: a file opened with ftrace_regex_open()
 * @ubuf: user text: names, globs, "!name", "name:command:params"
 * @cnt: its length
 * @ppos: file position
 *
 * Return: the bytes consumed, or -EINVAL when a word matches nothing (that
 * word is dropped; the others are published at close).
 */
ssize_t ftrace_filter_write(struct file *file, const char __user *ubuf,
			    size_t cnt, loff_t *ppos)
{
	return fs_write(file, ubuf, cnt, ppos);
}

/**
 * ftrace_notrace_write - write handler of the notrace files
 * @file: see ftrace_filter_write()
 * @ubuf: user text
 * @cnt: its length
 * @ppos: file position
 *
 * Return: as ftrace_filter_write().
 */
ssize_t ftrace_notrace_write(struct file *file, const char __user *ubuf,
			     size_t cnt, loff_t *ppos)
{
	return fs_write(file, ubuf, cnt, ppos);
}

static int publish(struct fs_iter *it)
{
	struct ftrace_hash __rcu **slot = target_slot(it);
	struct ftrace_hash *new, *old;

	lockdep_assert_held(&ftrace_lock);
	if (has_mods(it))
		return ftrace_mods_publish(it->tr, it->ops, &it->mods, it->hash,
					   it->kind == FS_FILTER);
	if (it->kind == FS_FILTER || it->kind == FS_NOTRACE)
		return ftrace_ops_take_hash(it->ops, it->kind == FS_NOTRACE,
					    it->hash);
	new = ftrace_hash_take_resized(it->hash);
	if (!new)
		return -ENOMEM;
	old = rcu_dereference_protected(*slot, lockdep_is_held(&ftrace_lock));
	rcu_assign_pointer(*slot, new);
	ftrace_hash_free_rcu(old);
	return 0;
}

/**
 * ftrace_regex_release - close a filter file, publishing what was written
 * @inode: the file's inode
 * @file: the file
 *
 * The words that were accepted are published, as in 6.1, except when the
 * file was written and not one word was accepted: then nothing changes,
 * even with O_TRUNC (6.1 would empty the filter: trace everything).
 *
 * Return: 0.
 */
int ftrace_regex_release(struct inode *inode, struct file *file)
{
	struct fs_iter *it = file_iter(file);

	if (it->hash) {
		/* A last word without a newline. */
		scoped_guard(mutex, &it->write_lock)
			apply_word(it);
	}
	if (it->hash && (it->ok || !it->failed)) {
		scoped_guard(mutex, &ftrace_lock)
			publish(it);
	}
	if (file->f_mode & FMODE_READ)
		seq_release(inode, file);
	if (it->tr_ref)
		trace_array_put(it->tr);
	fs_iter_free(it);
	return 0;
}

static int filter_open(struct inode *inode, struct file *file)
{
	struct trace_array *tr = inode->i_private;

	return ftrace_regex_open(tr, tr ? tr->ops : &global_ops,
				 FTRACE_ITER_FILTER, inode, file);
}

static int notrace_open(struct inode *inode, struct file *file)
{
	struct trace_array *tr = inode->i_private;

	return ftrace_regex_open(tr, tr ? tr->ops : &global_ops,
				 FTRACE_ITER_NOTRACE, inode, file);
}

static int open_plain(struct inode *inode, struct file *file,
		      enum fs_kind kind)
{
	int ret = security_locked_down(LOCKDOWN_TRACEFS);

	return ret ?: fs_open(inode, file, kind, NULL, NULL);
}

static int avail_open(struct inode *inode, struct file *file)
{
	return open_plain(inode, file, FS_AVAIL);
}

static int avail_addrs_open(struct inode *inode, struct file *file)
{
	return open_plain(inode, file, FS_AVAIL_ADDRS);
}

static int enabled_open(struct inode *inode, struct file *file)
{
	return open_plain(inode, file, FS_ENABLED);
}

static int touched_open(struct inode *inode, struct file *file)
{
	return open_plain(inode, file, FS_TOUCHED);
}

static int graph_open(struct inode *inode, struct file *file)
{
	return open_plain(inode, file, FS_GRAPH);
}

static int graph_notrace_open(struct inode *inode, struct file *file)
{
	return open_plain(inode, file, FS_GRAPH_NOTRACE);
}

#define FTRACE_FOPS(name, openf, writef)		\
static const struct file_operations name = {		\
	.open = openf,					\
	.read = seq_read,				\
	.write = writef,				\
	.llseek = tracing_lseek,			\
	.release = ftrace_regex_release,		\
}

FTRACE_FOPS(filter_fops, filter_open, ftrace_filter_write);
FTRACE_FOPS(notrace_fops, notrace_open, ftrace_notrace_write);
FTRACE_FOPS(graph_fops, graph_open, ftrace_filter_write);
FTRACE_FOPS(graph_notrace_fops, graph_notrace_open, ftrace_notrace_write);
FTRACE_FOPS(avail_fops, avail_open, NULL);
FTRACE_FOPS(avail_addrs_fops, avail_addrs_open, NULL);
FTRACE_FOPS(enabled_fops, enabled_open, NULL);
FTRACE_FOPS(touched_fops, touched_open, NULL);

/**
 * ftrace_create_filter_files - create set_ftrace_filter/_notrace in @parent
 * @tr: the trace array whose ops the files edit (NULL: global_ops)
 * @parent: the directory
 */
void ftrace_create_filter_files(struct trace_array *tr, struct dentry *parent)
{
	if (tr && tr->ops)
		ftrace_ops_init(tr->ops);
	trace_create_file("set_ftrace_filter", TRACE_MODE_WRITE, parent, tr,
			  &filter_fops);
	trace_create_file("set_ftrace_notrace", TRACE_MODE_WRITE, parent, tr,
			  &notrace_fops);
}

/**
 * ftrace_destroy_filter_files - make sure @ops is off before it is freed
 * @ops: the ops of a trace array being removed
 *
 * The ":mod:" words still waiting for their module go with it (the trace
 * array has already left the list that module loads walk).
 */
void ftrace_destroy_filter_files(struct ftrace_ops *ops)
{
	struct trace_array *tr = ops->private;

	scoped_guard(mutex, &ftrace_lock) {
		if (ops->flags & FTRACE_OPS_FL_ENABLED)
			ftrace_shutdown(ops, 0);
		ops->flags |= FTRACE_OPS_FL_DELETED;
		if (tr && tr->ops == ops) {
			ftrace_mods_free(&tr->mod_trace);
			ftrace_mods_free(&tr->mod_notrace);
		}
	}
	ftrace_free_filter(ops);
}

/**
 * ftrace_dyn_tracefs - the top-level files of dynamic ftrace
 * @d_tracer: the tracefs root
 */
void __init ftrace_dyn_tracefs(struct dentry *d_tracer)
{
	trace_create_file("available_filter_functions", TRACE_MODE_READ,
			  d_tracer, NULL, &avail_fops);
	trace_create_file("available_filter_functions_addrs", TRACE_MODE_READ,
			  d_tracer, NULL, &avail_addrs_fops);
	trace_create_file("enabled_functions", TRACE_MODE_READ, d_tracer,
			  NULL, &enabled_fops);
	trace_create_file("touched_functions", TRACE_MODE_READ, d_tracer,
			  NULL, &touched_fops);
	ftrace_create_filter_files(NULL, d_tracer);
	if (IS_ENABLED(CONFIG_FUNCTION_GRAPH_TRACER)) {
		trace_create_file("set_graph_function", TRACE_MODE_WRITE,
				  d_tracer, NULL, &graph_fops);
		trace_create_file("set_graph_notrace", TRACE_MODE_WRITE,
				  d_tracer, NULL, &graph_notrace_fops);
	}
}
